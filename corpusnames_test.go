package cmdbridge_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// corpusDirs hold the delivery corpus, the example this toolkit is proven on: its
// commands, native tools, domain model and the binaries built from them. Every other
// package is the toolkit.
var corpusDirs = []string{"commands", "nativetools", "delivery", "cmd/cmdbridge", "cmd/delivery", "testdata"}

// corpusName matches what names the corpus: its program and variables, its work units
// and initiatives.
var corpusName = regexp.MustCompile(`\bdelivery\b|\bDELIVERY_|\bWU-|\bwu\b|\bwu:|\binitiatives?\b`)

// TestToolkitNamesNoCorpus: no string literal of a toolkit package's code (tests aside)
// names the corpus: its environment, clock, program name, initialisms and examples come
// from the host's or the suite's configuration (delivery.ScriptEnv and Initialisms,
// given as host.Config.ScriptEnv and Initialisms; status.Options.Program), so an outside
// program gets none of them.
func TestToolkitNamesNoCorpus(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			for _, c := range corpusDirs {
				if path == c || strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "node_modules" {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && corpusName.MatchString(lit.Value) {
				t.Errorf("%s: %s names the corpus: take it from the host's configuration", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
}
