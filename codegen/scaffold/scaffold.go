package scaffold

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Config says where the scaffold reads commands from and writes tools to.
type Config struct {
	// Root is the directory the generated paths are relative to (nativetools/…,
	// testdata/script/parity/…). It must lie inside a Go module: generated import paths
	// are derived from the module path.
	Root string
	// Dir is where the command packages are loaded from (default: the root of Root's
	// module); Patterns are the go/packages patterns naming them (default ./commands/...).
	Dir      string
	Patterns []string
	// Commands is the registry whose pristine apps give the adapter schema, the ground
	// truth the Input struct reproduces (default commands.Default).
	Commands *legacy.Registry
	// Scripts is the folder of the corpus golden scripts (default: testdata/script in the
	// root of Root's module).
	Scripts string
}

// File is one generated file: its path relative to Root and its content.
type File struct {
	Path    string
	Content []byte
	// Maintained files (nativetools/all/all.go) are regenerated without --force.
	Maintained bool
}

// Plan computes the files scaffolding names would write, without writing anything. It
// locates every command once (so file names are disambiguated against the whole
// domain), then renders each named command's tool file, test file and parity script,
// the doc.go of any domain package that has none, and nativetools/all/all.go.
func Plan(ctx context.Context, cfg Config, names ...string) ([]File, error) {
	if cfg.Root == "" {
		return nil, errors.New("scaffold: no root directory")
	}
	root, err := filepath.Abs(cfg.Root)
	if err != nil {
		return nil, err
	}
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{"./commands/..."}
	}
	if cfg.Commands == nil {
		cfg.Commands = legacy.NewRegistry()
	}
	nativePath, modRoot, err := importPath(root)
	if err != nil {
		return nil, err
	}
	if cfg.Dir == "" {
		cfg.Dir = modRoot
	}
	if cfg.Scripts == "" {
		cfg.Scripts = filepath.Join(modRoot, "testdata", "script")
	}
	nativePath += "/nativetools"
	all, err := Locate(ctx, cfg.Dir, cfg.Patterns...)
	if err != nil {
		return nil, err
	}
	byName := map[string]Located{}
	for _, l := range all {
		byName[l.Name] = l
	}
	names2 := naming(all)
	var files []File
	domains := map[string]bool{}
	docs := map[string]bool{}
	for _, name := range names {
		loc, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("scaffold %s: no commands.Register of that name in %v", name, cfg.Patterns)
		}
		c, ok := cfg.Commands.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("scaffold %s: found in source but not registered in this binary's command registry", name)
		}
		spec, err := adapter.Spec(c)
		if err != nil {
			return nil, fmt.Errorf("scaffold %s: %w", name, err)
		}
		n := names2[name]
		t := Tool{Loc: loc, Spec: spec, Package: packageName(loc.Domain), Base: n[0], TypeName: n[1], Handler: n[2]}
		if t.Fields, err = fields(name, spec.InputSchema); err != nil {
			return nil, fmt.Errorf("scaffold %s: %w", name, err)
		}
		if t.Constraints, err = adapter.Constraints(c); err != nil {
			return nil, fmt.Errorf("scaffold %s: %w", name, err)
		}
		pkgPath := nativePath + "/" + t.Package
		dir := filepath.Join("nativetools", t.Package)
		src, err := toolFile(t, pkgPath, relSlash(modRoot, loc.File))
		if err != nil {
			return nil, fmt.Errorf("scaffold %s: render tool: %w", name, err)
		}
		test, err := testFile(t, pkgPath)
		if err != nil {
			return nil, fmt.Errorf("scaffold %s: render test: %w", name, err)
		}
		corpus, err := findCorpusScript(cfg.Scripts, name)
		if err != nil {
			return nil, err
		}
		script, err := parityScript(t, c.New(), corpus, relSlash(modRoot, corpus))
		if err != nil {
			return nil, fmt.Errorf("scaffold %s: parity script: %w", name, err)
		}
		files = append(files,
			File{Path: filepath.Join(dir, t.Base+".go"), Content: src},
			File{Path: filepath.Join(dir, t.Base+"_test.go"), Content: test},
			File{Path: filepath.Join("testdata", "script", "parity", scriptName(name)), Content: script})
		domains[pkgPath] = true
		if !docs[t.Package] {
			if _, err := os.Stat(filepath.Join(root, dir, "doc.go")); errors.Is(err, os.ErrNotExist) {
				doc, err := docFile(pkgPath, t.Package, loc.Domain)
				if err != nil {
					return nil, err
				}
				files = append(files, File{Path: filepath.Join(dir, "doc.go"), Content: doc})
			}
			docs[t.Package] = true
		}
	}
	existing, err := domainPackages(filepath.Join(root, "nativetools"), nativePath)
	if err != nil {
		return nil, err
	}
	for _, p := range existing {
		domains[p] = true
	}
	list := make([]string, 0, len(domains))
	for p := range domains {
		list = append(list, p)
	}
	sort.Strings(list)
	allSrc, err := allFile(nativePath+"/all", list)
	if err != nil {
		return nil, fmt.Errorf("scaffold: render all.go: %w", err)
	}
	files = append(files, File{Path: filepath.Join("nativetools", "all", "all.go"), Content: allSrc, Maintained: true})
	return files, nil
}

// ExistsError lists the files a scaffold would overwrite.
type ExistsError struct{ Paths []string }

func (e *ExistsError) Error() string {
	return "scaffold: refusing to overwrite existing files (use --force):\n  " + strings.Join(e.Paths, "\n  ")
}

// Write writes files under root. Without force it writes nothing at all when any
// non-maintained file already exists, and returns an *ExistsError listing them. It
// returns the paths it wrote (a maintained file whose content is unchanged is skipped).
func Write(root string, files []File, force bool) ([]string, error) {
	var exist []string
	for _, f := range files {
		if f.Maintained {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, f.Path)); err == nil {
			exist = append(exist, filepath.ToSlash(f.Path))
		}
	}
	if len(exist) > 0 && !force {
		return nil, &ExistsError{Paths: exist}
	}
	var wrote []string
	for _, f := range files {
		path := filepath.Join(root, f.Path)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, f.Content) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return wrote, fmt.Errorf("scaffold: %w", err)
		}
		if err := os.WriteFile(path, f.Content, 0o644); err != nil {
			return wrote, fmt.Errorf("scaffold: %w", err)
		}
		wrote = append(wrote, filepath.ToSlash(f.Path))
	}
	return wrote, nil
}

// WriteMissing writes the files that do not exist yet (and maintained files that
// changed) and leaves every existing file untouched, returning what it wrote and what it
// kept. It is for a migration that already has some of the files, such as a
// hand-written parity script.
func WriteMissing(root string, files []File) (wrote, kept []string, err error) {
	var missing []File
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(root, f.Path)); err == nil && !f.Maintained {
			kept = append(kept, filepath.ToSlash(f.Path))
			continue
		}
		missing = append(missing, f)
	}
	wrote, err = Write(root, missing, false)
	return wrote, kept, err
}

// Scaffold plans and writes the files of the named commands under cfg.Root.
func Scaffold(ctx context.Context, cfg Config, force bool, names ...string) ([]string, error) {
	files, err := Plan(ctx, cfg, names...)
	if err != nil {
		return nil, err
	}
	return Write(cfg.Root, files, force)
}

// importPath returns the import path of dir, from the go.mod of its module, and the
// module's root directory.
func importPath(dir string) (string, string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			mod := modfile.ModulePath(data)
			if mod == "" {
				return "", "", fmt.Errorf("scaffold: %s has no module line", filepath.Join(d, "go.mod"))
			}
			rel, err := filepath.Rel(d, dir)
			if err != nil {
				return "", "", err
			}
			if rel == "." {
				return mod, d, nil
			}
			return mod + "/" + filepath.ToSlash(rel), d, nil
		}
		if filepath.Dir(d) == d {
			return "", "", fmt.Errorf("scaffold: %s is not inside a Go module", dir)
		}
	}
}

// domainPackages lists the import paths of the nativetools subfolders holding a tool
// package: a non-test file that imports nativetools and has an init function.
func domainPackages(dir, nativePath string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "all" || e.Name() == "internal" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, e.Name(), "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			if registers(f, nativePath) {
				out = append(out, nativePath+"/"+e.Name())
				break
			}
		}
	}
	return out, nil
}

func registers(file, nativePath string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	imports := false
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == nativePath || p == pathNativetools {
			imports = true
		}
	}
	if !imports {
		return false
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
			return true
		}
	}
	return false
}
