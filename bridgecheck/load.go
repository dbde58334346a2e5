package bridgecheck

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// load loads the packages matching patterns, resolved from dir, and all their
// dependencies: the packages matched and every dependency that can carry a fact
// (exitcall's Exits and nativeglobals' ReadsGlobal are computed on dependencies too)
// from source, with syntax and types; the standard library, where no fact is computed,
// from the compiler's export data, as go vet does (one `go list -export`, served from
// the build cache), without parsing or type-checking it. A package that fails to load
// or type-check is an error.
func load(dir string, patterns []string) ([]*packages.Package, error) {
	const meta = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
		packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedTypesSizes
	fset := token.NewFileSet()
	roots, err := packages.Load(&packages.Config{Mode: meta, Dir: dir, Fset: fset}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", strings.Join(patterns, " "), err)
	}
	var all []*packages.Package // dependencies first
	packages.Visit(roots, nil, func(p *packages.Package) { all = append(all, p) })
	root := map[*packages.Package]bool{}
	for _, p := range roots {
		root[p] = true
	}
	var listErrs []error
	for _, p := range all {
		for _, e := range p.Errors {
			listErrs = append(listErrs, fmt.Errorf("%s: %s", p.PkgPath, e))
		}
	}
	if len(listErrs) > 0 {
		return nil, fmt.Errorf("load %s: %w", strings.Join(patterns, " "), errors.Join(listErrs...))
	}

	// A dependency outside any module whose path has no dot in its first element (the
	// standard library) gets no fact (exitcall's and nativeglobals' exporting), nor do
	// its own dependencies, when they are such packages too: its export data serves.
	exported := map[*packages.Package]bool{}
	var std []string
	for _, p := range all {
		ok := !root[p] && p.Module == nil && !dotted(p.PkgPath)
		for _, imp := range p.Imports {
			ok = ok && exported[imp]
		}
		exported[p] = ok
		if ok && p.PkgPath != "unsafe" {
			std = append(std, p.PkgPath)
		}
	}
	if err := readExports(dir, fset, all, exported, std); err != nil {
		return nil, fmt.Errorf("load %s: %w", strings.Join(patterns, " "), err)
	}

	// The others from source, each once its imports are done, as many at a time as
	// there are CPUs.
	done := map[*packages.Package]chan struct{}{}
	for _, p := range all {
		if !exported[p] {
			done[p] = make(chan struct{})
		}
	}
	cpu := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, p := range all {
		if exported[p] {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(done[p])
			for _, imp := range p.Imports {
				if ch, ok := done[imp]; ok {
					<-ch
				}
			}
			cpu <- struct{}{}
			defer func() { <-cpu }()
			check(fset, p)
		}()
	}
	wg.Wait()

	var loadErrs []error
	for _, p := range all {
		p.IllTyped = len(p.Errors) > 0
		for _, imp := range p.Imports {
			p.IllTyped = p.IllTyped || imp.IllTyped
		}
		for _, e := range p.Errors {
			loadErrs = append(loadErrs, fmt.Errorf("%s: %s", p.PkgPath, e))
		}
	}
	if len(loadErrs) > 0 {
		return nil, fmt.Errorf("load %s: %w", strings.Join(patterns, " "), errors.Join(loadErrs...))
	}
	return roots, nil
}

// dotted reports whether the first element of an import path has a dot (a module
// path's host, as the standard library's never has).
func dotted(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return strings.Contains(first, ".")
}

// readExports gives the packages exported marks their types from export data: the
// files `go list -export` names for the import paths std, read by go/packages (one
// load, so that every package sees the same types of the ones it imports).
func readExports(dir string, fset *token.FileSet, all []*packages.Package, exported map[*packages.Package]bool, std []string) error {
	typesOf := map[string]*types.Package{"unsafe": types.Unsafe}
	if len(std) > 0 {
		listed, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedTypes, Dir: dir, Fset: fset}, std...)
		if err != nil {
			return err
		}
		var errs []error
		packages.Visit(listed, nil, func(p *packages.Package) {
			if p.Types != nil {
				typesOf[p.PkgPath] = p.Types
			}
			for _, e := range p.Errors {
				errs = append(errs, fmt.Errorf("%s: %s", p.PkgPath, e))
			}
		})
		if len(errs) > 0 {
			return errors.Join(errs...)
		}
	}
	for _, p := range all {
		if !exported[p] {
			continue
		}
		p.Fset = fset
		p.TypesInfo = newInfo() // no syntax: nothing in it
		if p.Types = typesOf[p.PkgPath]; p.Types == nil {
			return fmt.Errorf("%s: no export data (go list -export)", p.PkgPath)
		}
	}
	return nil
}

// check parses p's files and type-checks them against its imports' types, recording
// every parse and type error in p.Errors (as go/packages does).
func check(fset *token.FileSet, p *packages.Package) {
	p.Fset = fset
	for _, name := range p.CompiledGoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		if f != nil {
			p.Syntax = append(p.Syntax, f)
		}
		var list scanner.ErrorList
		var pathErr *os.PathError
		switch {
		case errors.As(err, &list):
			for _, e := range list {
				p.Errors = append(p.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		case errors.As(err, &pathErr):
			p.Errors = append(p.Errors, packages.Error{Pos: pathErr.Path + ":1", Msg: pathErr.Err.Error(), Kind: packages.ParseError})
		case err != nil:
			p.Errors = append(p.Errors, packages.Error{Pos: name + ":1", Msg: err.Error(), Kind: packages.ParseError})
		}
	}
	p.TypesInfo = newInfo()
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	tc := &types.Config{
		Importer: importer(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			imp := p.Imports[path]
			if imp == nil || imp.Types == nil {
				return nil, fmt.Errorf("no metadata for %s", path)
			}
			return imp.Types, nil
		}),
		Sizes: p.TypesSizes,
		Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) {
				p.TypeErrors = append(p.TypeErrors, te)
				p.Errors = append(p.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
				return
			}
			p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	err := types.NewChecker(tc, fset, p.Types, p.TypesInfo).Files(p.Syntax)
	if err != nil && len(p.Errors) == 0 {
		p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.TypeError})
	}
}

type importer func(path string) (*types.Package, error)

func (f importer) Import(path string) (*types.Package, error) { return f(path) }

func newInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
}
