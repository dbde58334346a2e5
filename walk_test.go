package cmdbridge_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walkName is a function the walk-through names: `pkg/path.Func`,
// `pkg/path.(*Type).Method` or `pkg/path.Type.Method`, the package path relative to the
// module root.
var walkName = regexp.MustCompile("`([a-z][a-z0-9/]*)\\.(?:\\((\\*?)([A-Za-z_][A-Za-z0-9_]*)\\)\\.|([A-Za-z_][A-Za-z0-9_]*)\\.)?([A-Za-z_][A-Za-z0-9_]*)`")

// TestArchitectureWalkNamesRealFunctions: every function (and type) docs/architecture.md's
// walk-through ("One call, from the wire to the file") names exists in the package it
// names, with the receiver it names, so the walk cannot drift from the code.
func TestArchitectureWalkNamesRealFunctions(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("docs", "architecture.md"))
	require.NoError(t, err)
	_, walk, ok := strings.Cut(string(doc), "## One call, from the wire to the file")
	require.True(t, ok, "docs/architecture.md has the walk-through")
	walk, _, _ = strings.Cut(walk, "\n## ")
	names := walkName.FindAllStringSubmatch(walk, -1)
	require.GreaterOrEqual(t, len(names), 20, "the walk names the functions a call passes")
	decls := map[string]map[string]bool{} // package dir → "Recv.Name" or "Name"
	for _, m := range names {
		pkg, recv, name := m[1], m[3]+m[4], m[5]
		if pkg == "os" {
			continue // the standard library's, named for the file read
		}
		if _, err := os.Stat(filepath.FromSlash(pkg + "." + name)); err == nil && recv == "" {
			continue // a file the walk points at (kernel/doc.go)
		}
		dir := filepath.FromSlash(pkg)
		if decls[dir] == nil {
			decls[dir] = declared(t, dir)
		}
		key := name
		if recv != "" {
			key = recv + "." + name
		}
		assert.True(t, decls[dir][key], "the walk names %s, which package %s does not declare", m[0], pkg)
	}
}

// declared are the functions, methods (Recv.Name) and types of the package in dir, tests
// aside.
func declared(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err, "package directory %s", dir)
	out := map[string]bool{}
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, spec := range g.Specs {
					out[spec.(*ast.TypeSpec).Name.Name] = true
				}
			}
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if fn.Recv == nil || len(fn.Recv.List) == 0 {
				out[fn.Name.Name] = true
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				out[id.Name+"."+fn.Name.Name] = true
			}
		}
	}
	return out
}

// TestArchitectureListsEveryPackage: every package of the module is a row of
// docs/architecture.md's package table, by its path or by a pattern row of its parent
// (`commands/<domain>`), so a newcomer finds every package there.
func TestArchitectureListsEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("docs", "architecture.md"))
	require.NoError(t, err)
	_, table, ok := strings.Cut(string(doc), "## Packages")
	require.True(t, ok)
	table, _, _ = strings.Cut(table, "\n## ")
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(table, -1) {
		named[m[1]] = true
	}
	out, err := exec.Command("go", "list", "./...").Output()
	require.NoError(t, err)
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, "github.com/cmdbridge/cmdbridge"), "/")
		if rel == "" {
			rel = "cmdbridge"
		}
		parent := filepath.ToSlash(filepath.Dir(rel))
		covered := named[rel]
		for n := range named {
			if strings.HasPrefix(n, parent+"/<") && !strings.Contains(strings.TrimPrefix(n, parent+"/"), "/") {
				covered = true
			}
		}
		assert.True(t, covered, "package %s has no row in docs/architecture.md's package table", rel)
	}
}
