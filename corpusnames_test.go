package cmdbridge_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
// given as host.Config.ScriptEnv and Initialisms; status.Config.Program), so an outside
// program gets none of them.
func TestToolkitNamesNoCorpus(t *testing.T) {
	toolkitGoFiles(t, func(path string) {
		if strings.HasSuffix(path, "_test.go") {
			return
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && corpusName.MatchString(lit.Value) {
				t.Errorf("%s: %s names the corpus: take it from the host's configuration", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
	})
}

// toolkitGoFiles calls visit with the path of every Go file of a toolkit package (the
// corpus's folders, hidden ones and node_modules left out).
func toolkitGoFiles(t *testing.T, visit func(path string)) {
	t.Helper()
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
		if strings.HasSuffix(path, ".go") {
			visit(path)
		}
		return nil
	})
	require.NoError(t, err)
}

// testsStillOnTheCorpus are the toolkit packages whose tests may still import the
// corpus, each with why. The list only shrinks: a package's tests run on small fixtures
// of its own (testdata/outside and its kind), and what is about the toolkit on the whole
// corpus is in the integration package.
var testsStillOnTheCorpus = map[string]string{
	// The package whose job it is: the toolkit tested with the corpus.
	"integration": "the toolkit tested with the delivery corpus",
}

// corpusPackages are the import paths of the corpus's packages, and everything below
// them.
var corpusPackages = []string{"commands", "nativetools", "delivery", "cmd/delivery", "cmd/cmdbridge"}

// TestToolkitTestsImportNoCorpus: no toolkit package's tests import a corpus package,
// directly or through a fixture under a testdata folder, except those
// testsStillOnTheCorpus allows; and every package that list allows still does (so a
// package that no longer needs it leaves the list).
func TestToolkitTestsImportNoCorpus(t *testing.T) {
	const mod = "github.com/cmdbridge/cmdbridge"
	fixtures := map[string]bool{} // fixture import path → imports the corpus
	var importsCorpus func(path string, seen map[string]bool) bool
	importsCorpus = func(path string, seen map[string]bool) bool {
		rel, ok := strings.CutPrefix(path, mod+"/")
		if !ok {
			return false
		}
		for _, c := range corpusPackages {
			if rel == c || strings.HasPrefix(rel, c+"/") {
				return true
			}
		}
		if !strings.Contains("/"+rel+"/", "/testdata/") || seen[path] {
			return false
		}
		if v, ok := fixtures[path]; ok {
			return v
		}
		seen[path] = true
		entries, err := os.ReadDir(filepath.FromSlash(rel))
		require.NoError(t, err, "fixture %s", path)
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(filepath.FromSlash(rel), name), nil, parser.ImportsOnly)
			require.NoError(t, err)
			for _, imp := range f.Imports {
				p, err := strconv.Unquote(imp.Path.Value)
				require.NoError(t, err)
				if importsCorpus(p, seen) {
					fixtures[path] = true
					return true
				}
			}
		}
		fixtures[path] = false
		return false
	}
	still := map[string]bool{}
	toolkitGoFiles(t, func(path string) {
		if !strings.HasSuffix(path, "_test.go") {
			return
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		require.NoError(t, err)
		dir := filepath.ToSlash(filepath.Dir(path))
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			require.NoError(t, err)
			if !importsCorpus(p, map[string]bool{}) {
				continue
			}
			if _, ok := testsStillOnTheCorpus[dir]; ok {
				still[dir] = true
				continue
			}
			t.Errorf("%s imports %s, of the corpus: test the toolkit on a fixture, or move the test to the integration package", fset.Position(imp.Pos()), p)
		}
	})
	for dir := range testsStillOnTheCorpus {
		assert.True(t, still[dir], "%s's tests import no corpus package any more: take it off testsStillOnTheCorpus", dir)
	}
}
