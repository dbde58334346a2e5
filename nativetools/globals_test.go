package nativetools_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoProcessGlobals scans every non-test file of the native tools for the process
// globals they must never touch (they reach the world through tool.Env only).
func TestNoProcessGlobals(t *testing.T) {
	forbidden := map[string]bool{
		"os.Stdout": true, "os.Stderr": true, "os.Stdin": true, "os.Args": true, "os.Exit": true,
		"os.Getenv": true, "os.LookupEnv": true, "os.Setenv": true, "os.Environ": true,
		"os.Chdir": true, "os.Getwd": true,
	}
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		require.NoError(t, err)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			assert.NotContains(t, []string{"flag", "log"}, p, "%s imports %s", path, p)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && forbidden[id.Name+"."+sel.Sel.Name] {
					t.Errorf("%s uses %s.%s", path, id.Name, sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, files, 10)
}
