package scaffold

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Config says where the scaffold reads commands from and writes tools to.
type Config struct {
	// Root is the directory the generated paths are relative to (nativetools/…,
	// testdata/script/parity/…). It must lie inside a Go module: generated import paths
	// are derived from the module path.
	Root string
	// Dir is where packages are discovered from (default: the root of Root's module).
	// Patterns are go/packages patterns relative to it; by default the scaffold loads
	// the packages the commands' constructors are declared in, then, for a command not
	// found there (a command-tree leaf), "./...".
	Dir      string
	Patterns []string
	// Commands is the registry whose pristine apps give the adapter schema, the ground
	// truth the Input struct reproduces, and the runtime view of a command whose
	// registration is not found in source.
	Commands *legacy.Registry
	// Scripts is the folder of the command golden scripts a parity script is seeded from
	// (default: testdata/script in the root of Root's module).
	Scripts string
	// Registry names the native registry generated tools register into, as
	// "importpath.Name": a func(native.Tool) (registered with a call) or a
	// *native.Registry variable (registered with Add). Default: the one
	// *native.Registry variable the discovered packages declare (the host may give its
	// own default: host.Config.ScaffoldRegistry; the corpus's is nativetools.Register).
	Registry string
	// Legacy names the *legacy.Registry variable ("importpath.Name") the generated test
	// looks the command up in (default: the one its registration reaches).
	Legacy string
	// Log receives notes about what the scaffold could not find in source (nil: none).
	Log io.Writer
	// Initialisms are the program's words written in capitals in Go names, besides Go's
	// own (id, url, json…): the corpus's "wu" gives WUStatus (host.Config.Initialisms).
	Initialisms []string
}

// File is one generated file: its path relative to Root and its content.
type File struct {
	Path    string
	Content []byte
	// Maintained files (nativetools/all/all.go) are regenerated without --force.
	Maintained bool
}

// Plan computes the files scaffolding names would write, without writing anything. It
// looks every command up in cfg.Commands, discovers its registration in source, then
// renders each named command's tool file, test file and parity script, the doc.go of
// any domain package that has none, and nativetools/all/all.go.
func Plan(ctx context.Context, cfg Config, names ...string) ([]File, error) {
	if cfg.Root == "" {
		return nil, errors.New("scaffold: no root directory")
	}
	root, err := filepath.Abs(cfg.Root)
	if err != nil {
		return nil, err
	}
	if cfg.Commands == nil {
		cfg.Commands = legacy.NewRegistry()
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	nativePath, modRoot, modPath, err := importPath(root)
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
	cmds := make([]legacy.Command, len(names))
	for i, name := range names {
		c, ok := cfg.Commands.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("scaffold %s: no command of that name is registered", name)
		}
		cmds[i] = c
	}
	locs, d, err := locateAll(ctx, cfg, modPath, cmds)
	if err != nil {
		return nil, err
	}
	target, err := nativeTarget(ctx, cfg, d)
	var files []File
	if errors.Is(err, errNoRegistry) {
		// The module has no registry yet: the scaffold declares one and says how to serve it.
		if target, files, err = newRegistry(cfg, root, nativePath, modPath); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	var everyone []Located
	for _, c := range cfg.Commands.All() {
		everyone = append(everyone, Located{Name: c.Name, Domain: c.Domain})
	}
	caps := newInitialisms(cfg.Initialisms)
	names2 := naming(everyone, caps)
	domains := map[string]bool{}
	docs := map[string]bool{}
	for i, name := range names {
		c, loc := cmds[i], locs[i]
		if loc.Runtime {
			fmt.Fprintf(cfg.Log, "scaffold %s: registration not found in source; using the registry's runtime view (flags from the command's New)\n", name)
		}
		spec, err := adapter.Spec(c)
		if err != nil {
			return nil, fmt.Errorf("scaffold %s: %w", name, err)
		}
		n := names2[name]
		t := Tool{Loc: loc, Spec: spec, Command: c, Native: target, Local: modPath,
			Package: packageName(c.Domain), Base: n[0], TypeName: n[1], Handler: n[2]}
		if t.Legacy, err = legacyRegistry(cfg, loc, d); err != nil {
			return nil, fmt.Errorf("scaffold %s: %w", name, err)
		}
		if t.Fields, err = fields(name, spec.InputSchema, caps); err != nil {
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
				doc, err := docFile(t, pkgPath)
				if err != nil {
					return nil, err
				}
				files = append(files, File{Path: filepath.Join(dir, "doc.go"), Content: doc})
			}
			docs[t.Package] = true
		}
	}
	existing, err := domainPackages(filepath.Join(root, "nativetools"), nativePath, target.Register.Path)
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
	allSrc, err := allFile(nativePath+"/all", list, target, modPath)
	if err != nil {
		return nil, fmt.Errorf("scaffold: render all.go: %w", err)
	}
	files = append(files, File{Path: filepath.Join("nativetools", "all", "all.go"), Content: allSrc, Maintained: true})
	return files, nil
}

// locateAll finds each command's registration in source. Without configured patterns
// it loads the packages the commands' constructors are declared in first (the runtime
// knows them), then "./..." for the commands still missing; a command found nowhere is
// located by the registry's runtime view (Located.Runtime).
func locateAll(ctx context.Context, cfg Config, modPath string, cmds []legacy.Command) ([]Located, *discovery, error) {
	var passes [][]string
	if len(cfg.Patterns) > 0 {
		passes = [][]string{cfg.Patterns}
	} else {
		seen := map[string]bool{}
		var hints []string
		for _, c := range cmds {
			// A constructor declared in a test (package path ending in _test) has no
			// package to load.
			if p := funcPackage(c.New); p != "" && p != legacyPkg && !seen[p] && !strings.HasSuffix(p, "_test") &&
				(p == modPath || strings.HasPrefix(p, modPath+"/")) {
				seen[p] = true
				hints = append(hints, p)
			}
		}
		if len(hints) > 0 {
			passes = append(passes, hints)
		}
		passes = append(passes, []string{"./..."})
	}
	locs := make([]Located, len(cmds))
	found := make([]bool, len(cmds))
	var d *discovery
	for _, patterns := range passes {
		var err error
		if d, err = discover(ctx, cfg.Dir, patterns); err != nil {
			return nil, nil, err
		}
		missing := 0
		for i, c := range cmds {
			if !found[i] {
				locs[i], found[i] = d.resolve(c)
			}
			if !found[i] {
				missing++
			}
		}
		if missing == 0 {
			break
		}
	}
	for i, c := range cmds {
		if !found[i] {
			locs[i] = Located{Name: c.Name, Domain: c.Domain, Runtime: true}
			for _, s := range d.skipped {
				fmt.Fprintf(cfg.Log, "scaffold %s: not searched: %s\n", c.Name, s)
			}
		}
	}
	return locs, d, nil
}

// resolve finds c's registration in what d discovered: its legacy.Command literal, or
// for a tree leaf the tree's registration and the leaf's cli.Command literal.
func (d *discovery) resolve(c legacy.Command) (Located, bool) {
	for _, l := range d.literals {
		if l.Name == c.Name {
			if l.Domain == "" {
				l.Domain = c.Domain
			}
			return l, true
		}
	}
	if c.Program == "" {
		return Located{}, false
	}
	tree, ok := d.findTree(c.Program)
	if !ok {
		return Located{}, false
	}
	loc := tree.Located
	loc.Name, loc.Domain, loc.Leaf = c.Name, c.Domain, strings.Join(c.Path, " ")
	if leaf, ok := d.findLeaf(c.Path); ok {
		loc.File, loc.Line = leaf.file, leaf.line
	}
	return loc, true
}

// errNoRegistry says the discovered packages of an adopter's module declare no
// *native.Registry variable.
var errNoRegistry = errors.New("scaffold: no *native.Registry variable found in this module")

// newRegistry is the target of a module without a native registry: Registry in the
// nativetools package beside the tools, declared by nativetools/registry.go (written
// unless a file of that name is there already), and the lines that serve it, on cfg.Log.
func newRegistry(cfg Config, root, nativePath, modPath string) (target, []File, error) {
	reg := Qual{Path: nativePath, Pkg: "nativetools", Name: "Registry"}
	tg := target{Register: reg, Lookup: reg, IsVar: true}
	path := filepath.Join("nativetools", "registry.go")
	var files []File
	if _, err := os.Stat(filepath.Join(root, path)); errors.Is(err, os.ErrNotExist) {
		src, err := registryFile(reg, modPath)
		if err != nil {
			return target{}, nil, fmt.Errorf("scaffold: render registry.go: %w", err)
		}
		files = append(files, File{Path: path, Content: src})
		fmt.Fprintf(cfg.Log, "scaffold: no *native.Registry variable in this module: %s declares %s for the scaffolded tools\n", filepath.ToSlash(path), reg.Short())
	}
	fmt.Fprintf(cfg.Log, "scaffold: serve it from your main: import %q and _ %q, and set host.Config{Native: %s} (host.Config.Native)\n",
		nativePath, nativePath+"/all", reg.Short())
	return tg, files, nil
}

// nativeTarget resolves the registry generated tools register into (Config.Registry
// or its default) and the *native.Registry variable their tests look them up in.
func nativeTarget(ctx context.Context, cfg Config, d *discovery) (target, error) {
	spec := cfg.Registry
	if spec == "" {
		// The module's own registry when the discovered packages declare exactly one
		// (a host that registers otherwise, as the corpus does through a function, says
		// so: host.Config.ScaffoldRegistry).
		if q, ok := only(d.natives); ok {
			return target{Register: q, Lookup: q, IsVar: true}, nil
		}
		if len(d.natives) == 0 {
			return target{}, errNoRegistry
		}
		var found []string
		for q := range d.natives {
			found = append(found, q.String())
		}
		sort.Strings(found)
		return target{}, fmt.Errorf("scaffold: %d *native.Registry variables found in this module (%s); name the one generated tools register into, the one host.Config.Native serves, with --registry IMPORTPATH.NAME", len(d.natives), strings.Join(found, ", "))
	}
	dot := strings.LastIndex(spec, ".")
	if dot <= strings.LastIndex(spec, "/") || dot == len(spec)-1 {
		return target{}, fmt.Errorf("scaffold: registry %q is not IMPORTPATH.NAME", spec)
	}
	path, name := spec[:dot], spec[dot+1:]
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Dir: cfg.Dir, Mode: packages.NeedName | packages.NeedTypes}, path)
	if err != nil {
		return target{}, fmt.Errorf("scaffold: load registry package %s: %w", path, err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 || pkgs[0].Types == nil {
		return target{}, fmt.Errorf("scaffold: registry package %s does not load", path)
	}
	pkg := pkgs[0].Types
	reg := Qual{path, pkg.Name(), name}
	switch obj := pkg.Scope().Lookup(name).(type) {
	case *types.Var:
		if isPtrTo(obj.Type(), nativePkg, "Registry") {
			return target{Register: reg, Lookup: reg, IsVar: true}, nil
		}
	case *types.Func:
		sig := obj.Type().(*types.Signature)
		if sig.Params().Len() == 1 && isNamed(sig.Params().At(0).Type(), nativePkg, "Tool") {
			var vars []Qual
			for _, n := range pkg.Scope().Names() {
				if v, ok := pkg.Scope().Lookup(n).(*types.Var); ok && v.Exported() && isPtrTo(v.Type(), nativePkg, "Registry") {
					vars = append(vars, Qual{path, pkg.Name(), n})
				}
			}
			if len(vars) != 1 {
				return target{}, fmt.Errorf("scaffold: registry %s: its package declares %d *native.Registry variables, need one for the generated test to look tools up in (name the variable instead)", spec, len(vars))
			}
			return target{Register: reg, Lookup: vars[0]}, nil
		}
	}
	return target{}, fmt.Errorf("scaffold: registry %s is neither a *native.Registry variable nor a func(native.Tool)", spec)
}

// legacyRegistry is the *legacy.Registry variable the generated test looks the command
// up in, or the zero Qual when the test cannot reach a registered command (the
// registration happens in a main package or was not found in source): the test then
// compares with the adapter schema as it was when scaffolded.
func legacyRegistry(cfg Config, loc Located, d *discovery) (Qual, error) {
	if cfg.Legacy != "" {
		dot := strings.LastIndex(cfg.Legacy, ".")
		if dot <= strings.LastIndex(cfg.Legacy, "/") || dot == len(cfg.Legacy)-1 {
			return Qual{}, fmt.Errorf("legacy registry %q is not IMPORTPATH.NAME", cfg.Legacy)
		}
		path := cfg.Legacy[:dot]
		return Qual{path, pathBase(path), cfg.Legacy[dot+1:]}, nil
	}
	if loc.Runtime || loc.Main {
		return Qual{}, nil
	}
	if loc.Registry != (Qual{}) {
		return loc.Registry, nil
	}
	q, _ := only(d.legacies)
	return q, nil
}

// pathBase is the last element of an import path, the package name by convention.
func pathBase(path string) string { return path[strings.LastIndex(path, "/")+1:] }

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

// importPath returns the import path of dir, from the go.mod of its module, the
// module's root directory and its module path.
func importPath(dir string) (string, string, string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			mod := modfile.ModulePath(data)
			if mod == "" {
				return "", "", "", fmt.Errorf("scaffold: %s has no module line", filepath.Join(d, "go.mod"))
			}
			rel, err := filepath.Rel(d, dir)
			if err != nil {
				return "", "", "", err
			}
			if rel == "." {
				return mod, d, mod, nil
			}
			return mod + "/" + filepath.ToSlash(rel), d, mod, nil
		}
		if filepath.Dir(d) == d {
			return "", "", "", fmt.Errorf("scaffold: %s is not inside a Go module", dir)
		}
	}
}

// domainPackages lists the import paths of the nativetools subfolders holding a tool
// package: a non-test file that imports the registry package and has an init function.
func domainPackages(dir, nativePath, registryPath string) ([]string, error) {
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
			if registers(f, registryPath) {
				out = append(out, nativePath+"/"+e.Name())
				break
			}
		}
	}
	return out, nil
}

func registers(file, registryPath string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	imports := false
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == registryPath {
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
