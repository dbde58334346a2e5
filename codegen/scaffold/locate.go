package scaffold

import (
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"path/filepath"
	"sort"

	"golang.org/x/tools/go/packages"

	"github.com/cmdbridge/cmdbridge/tool"
)

// commandsPkg is the import path of the registry legacy commands register into.
const commandsPkg = "github.com/cmdbridge/cmdbridge/commands"

// Located is where a legacy command is declared, as read from source: the
// commands.Register call naming it and the constructor its New field points at.
type Located struct {
	// Name and Domain are the constant values of the registration's fields; a
	// registration without a Domain has tool.Domain(Name), as the registry gives it.
	Name, Domain string
	// PkgPath and PkgName identify the package declaring the command.
	PkgPath, PkgName string
	// Constructor is the name of the function in New (newWUStatusApp).
	Constructor string
	// File and Line locate the constructor's declaration.
	File string
	Line int
}

// Locate loads the packages matching patterns (relative to dir) with syntax and types
// and returns every command they register with commands.Register, sorted by name. A
// registration whose Name or Domain is not a constant string, or whose New is not a
// named function, is an error: the scaffold would not know what it generates from.
func Locate(ctx context.Context, dir string, patterns ...string) ([]Located, error) {
	cfg := &packages.Config{
		Context: ctx,
		Dir:     dir,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo,
		Tests: false,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("load %v: %w", patterns, err)
	}
	var out []Located
	var errs []error
	for _, pkg := range pkgs {
		for _, e := range pkg.Errors {
			errs = append(errs, fmt.Errorf("%s: %v", pkg.PkgPath, e))
		}
		if pkg.TypesInfo == nil {
			continue
		}
		for _, file := range pkg.Syntax {
			ast.Inspect(file, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || !isRegister(pkg.TypesInfo, call) || len(call.Args) != 1 {
					return true
				}
				loc, err := located(pkg, call.Args[0])
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", pkg.Fset.Position(call.Pos()), err))
					return true
				}
				out = append(out, loc)
				return true
			})
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("locate commands: %w", errs[0])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// isRegister reports whether call is commands.Register(...), however the package is
// imported.
func isRegister(info *types.Info, call *ast.CallExpr) bool {
	var id *ast.Ident
	switch fn := call.Fun.(type) {
	case *ast.SelectorExpr:
		id = fn.Sel
	case *ast.Ident:
		id = fn
	default:
		return false
	}
	f, ok := info.Uses[id].(*types.Func)
	return ok && f.Pkg() != nil && f.Pkg().Path() == commandsPkg && f.Name() == "Register"
}

// located reads a legacy.Command composite literal.
func located(pkg *packages.Package, arg ast.Expr) (Located, error) {
	lit, ok := ast.Unparen(arg).(*ast.CompositeLit)
	if !ok {
		return Located{}, fmt.Errorf("commands.Register argument is not a legacy.Command literal")
	}
	loc := Located{PkgPath: pkg.PkgPath, PkgName: pkg.Name}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return Located{}, fmt.Errorf("legacy.Command literal must use field names")
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		switch key.Name {
		case "Name", "Domain":
			tv, ok := pkg.TypesInfo.Types[kv.Value]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
				return Located{}, fmt.Errorf("legacy.Command.%s must be a constant string", key.Name)
			}
			if key.Name == "Name" {
				loc.Name = constant.StringVal(tv.Value)
			} else {
				loc.Domain = constant.StringVal(tv.Value)
			}
		case "New":
			id, ok := ast.Unparen(kv.Value).(*ast.Ident)
			if !ok {
				return Located{}, fmt.Errorf("legacy.Command.New must name a constructor function")
			}
			fn, ok := pkg.TypesInfo.Uses[id].(*types.Func)
			if !ok {
				return Located{}, fmt.Errorf("legacy.Command.New: %s is not a function", id.Name)
			}
			pos := pkg.Fset.Position(fn.Pos())
			loc.Constructor, loc.File, loc.Line = fn.Name(), pos.Filename, pos.Line
		}
	}
	if loc.Name == "" || loc.Constructor == "" {
		return Located{}, fmt.Errorf("legacy.Command literal needs a constant Name and a named New")
	}
	if loc.Domain == "" {
		loc.Domain = tool.Domain(loc.Name)
	}
	return loc, nil
}

// relSlash returns path relative to root with forward slashes, or path itself when it is
// not under root.
func relSlash(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || filepath.IsAbs(rel) || rel == ".." || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}
