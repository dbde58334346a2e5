package scaffold

import (
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Import paths the locator recognises by type, whatever name a file imports them under.
const (
	legacyPkg = "github.com/cmdbridge/cmdbridge/tool/legacy"
	nativePkg = "github.com/cmdbridge/cmdbridge/tool/native"
	cliPkg    = "github.com/urfave/cli/v2"
)

// Qual is a package-level identifier: a registry variable or a registration function.
type Qual struct {
	// Path is the import path, Pkg the package name, Name the identifier.
	Path, Pkg, Name string
}

func (q Qual) String() string { return q.Path + "." + q.Name }

// Short is the identifier as a file importing its package writes it (nativetools.Default).
func (q Qual) Short() string { return q.Pkg + "." + q.Name }

// Located is where a legacy command is declared, as read from source.
type Located struct {
	// Name and Domain are the command's (constants of its legacy.Command literal, or the
	// registry's view for a tree leaf); a registration without a Domain has
	// tool.Domain(Name), as the registry gives it.
	Name, Domain string
	// PkgPath and PkgName identify the package holding the registration; Main says it is
	// a main package, which a test cannot import.
	PkgPath, PkgName string
	Main             bool
	// Constructor is the function building the command's app (New, or the tree's app
	// constructor for a leaf); Leaf is the leaf's path below the program (notes add).
	Constructor string
	Leaf        string
	// File and Line locate the constructor's declaration, or the leaf's cli.Command.
	File string
	Line int
	// Registry is the package-level *legacy.Registry the registration reaches, when the
	// source shows it (the receiver of Add/AddApp, or the one registry variable of the
	// registering function's package).
	Registry Qual
	// Runtime says the registration was not found in source: what the scaffold knows
	// comes from the registry's runtime view (flags from the command's New).
	Runtime bool
}

// discovery is everything one load of the packages shows about registrations.
type discovery struct {
	literals []Located     // legacy.Command literals with a constant Name
	trees    []treeReg     // AddApp and FromApp calls
	leaves   []leafLit     // cli.Command literals with a constant Name
	legacies map[Qual]bool // package-level *legacy.Registry variables
	natives  map[Qual]bool // package-level *native.Registry variables
	skipped  []string      // packages that did not load, with their first error
	// held maps a variable holding a legacy.Command literal to the literal's index in
	// literals; passed maps a variable handed to a function taking a legacy.Command
	// (Register(c), r.Add(c)) to that call, so the literal learns its registration.
	held   map[varKey]int
	passed map[varKey]passing
}

// varKey identifies a variable across the packages of one load: package-level ones by
// name (another package sees them through export data), local ones by position too.
type varKey struct {
	path, name string
	pos        token.Pos
}

func keyOf(v *types.Var) varKey {
	if v.Pkg() == nil {
		return varKey{name: v.Name(), pos: v.Pos()}
	}
	if v.Parent() == v.Pkg().Scope() {
		return varKey{path: v.Pkg().Path(), name: v.Name()}
	}
	return varKey{path: v.Pkg().Path(), name: v.Name(), pos: v.Pos()}
}

// passing is a call registering a variable: the registry it reaches and its package.
type passing struct {
	registry         Qual
	pkgPath, pkgName string
}

// treeReg is one command tree registered whole.
type treeReg struct {
	Located
	program string // TreeOptions.Program or the app literal's Name, when constant
}

// leafLit is a cli.Command literal: its name and the names of the literals it sits in
// (nearest first).
type leafLit struct {
	name    string
	parents []string
	pkgPath string
	file    string
	line    int
}

// Locate loads the packages matching patterns (relative to dir) with syntax and types
// and returns every command they declare as a legacy.Command literal with constant Name
// and Domain, wherever the literal is (an argument of commands.Register, of r.Add, of a
// local helper, an element of a table), sorted by name. A literal whose Name is not a
// constant is skipped: the scaffold would not know what it generates from.
func Locate(ctx context.Context, dir string, patterns ...string) ([]Located, error) {
	d, err := discover(ctx, dir, patterns)
	if err != nil {
		return nil, err
	}
	sort.Slice(d.literals, func(i, j int) bool { return d.literals[i].Name < d.literals[j].Name })
	return d.literals, nil
}

func discover(ctx context.Context, dir string, patterns []string) (*discovery, error) {
	cfg := &packages.Config{
		Context: ctx,
		Dir:     dir,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("load %v: %w", patterns, err)
	}
	d := &discovery{legacies: map[Qual]bool{}, natives: map[Qual]bool{}, held: map[varKey]int{}, passed: map[varKey]passing{}}
	for _, pkg := range pkgs {
		if len(pkg.Errors) > 0 {
			// One broken package of a module does not hide the registrations of the
			// others; a command it held falls back to the runtime view, with this note.
			d.skipped = append(d.skipped, fmt.Sprintf("%s: %v", pkg.PkgPath, pkg.Errors[0]))
			continue
		}
		if pkg.TypesInfo == nil {
			continue
		}
		for _, name := range pkg.Types.Scope().Names() {
			v, ok := pkg.Types.Scope().Lookup(name).(*types.Var)
			switch {
			case !ok || !v.Exported():
			case isPtrTo(v.Type(), legacyPkg, "Registry"):
				d.legacies[Qual{pkg.PkgPath, pkg.Name, name}] = true
			case isPtrTo(v.Type(), nativePkg, "Registry"):
				d.natives[Qual{pkg.PkgPath, pkg.Name, name}] = true
			}
		}
		for _, file := range pkg.Syntax {
			d.inspect(pkg, file)
		}
	}
	for k, i := range d.held {
		if p, ok := d.passed[k]; ok {
			d.literals[i].Registry = p.registry
			d.literals[i].PkgPath, d.literals[i].PkgName, d.literals[i].Main = p.pkgPath, p.pkgName, p.pkgName == "main"
		}
	}
	return d, nil
}

// inspect records the registrations and cli.Command literals of one file.
func (d *discovery) inspect(pkg *packages.Package, file *ast.File) {
	info := pkg.TypesInfo
	var stack []ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.CompositeLit:
			switch t := info.TypeOf(n); {
			case isNamed(t, legacyPkg, "Command"):
				if loc, ok := commandLiteral(pkg, n); ok {
					call := enclosingCall(stack)
					loc.Registry = registryOf(info, call)
					if v := heldBy(info, stack); call == nil && v != nil {
						d.held[keyOf(v)] = len(d.literals)
					}
					d.literals = append(d.literals, loc)
				}
			case isNamed(t, cliPkg, "Command"):
				if name, ok := constField(info, n, "Name"); ok {
					pos := pkg.Fset.Position(n.Pos())
					d.leaves = append(d.leaves, leafLit{name: name, parents: parentCommands(info, stack),
						pkgPath: pkg.PkgPath, file: pos.Filename, line: pos.Line})
				}
			}
		case *ast.CallExpr:
			if tree, ok := treeCall(pkg, n); ok {
				tree.Registry = registryOf(info, n)
				d.trees = append(d.trees, tree)
			}
			for _, arg := range n.Args {
				if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok && isNamed(v.Type(), legacyPkg, "Command") {
						d.passed[keyOf(v)] = passing{registryOf(info, n), pkg.PkgPath, pkg.Name}
					}
				}
			}
		}
		return true
	})
}

// commandLiteral reads a legacy.Command literal with a constant Name.
func commandLiteral(pkg *packages.Package, lit *ast.CompositeLit) (Located, bool) {
	info := pkg.TypesInfo
	loc := Located{PkgPath: pkg.PkgPath, PkgName: pkg.Name, Main: pkg.Name == "main"}
	var ok bool
	if loc.Name, ok = constField(info, lit, "Name"); !ok {
		return Located{}, false
	}
	loc.Domain, _ = constField(info, lit, "Domain")
	if loc.Domain == "" {
		loc.Domain = tool.Domain(loc.Name) // as the registry derives it
	}
	if v := field(lit, "New"); v != nil {
		loc.Constructor, loc.File, loc.Line = funcOf(pkg, v)
	}
	if loc.File == "" {
		pos := pkg.Fset.Position(lit.Pos())
		loc.File, loc.Line = pos.Filename, pos.Line
	}
	return loc, true
}

// treeCall recognises (*legacy.Registry).AddApp(newApp, opts) and legacy.FromApp(newApp,
// opts).
func treeCall(pkg *packages.Package, call *ast.CallExpr) (treeReg, bool) {
	info := pkg.TypesInfo
	fn := calledFunc(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != legacyPkg || len(call.Args) != 2 {
		return treeReg{}, false
	}
	if fn.Name() != "AddApp" && fn.Name() != "FromApp" {
		return treeReg{}, false
	}
	t := treeReg{Located: Located{PkgPath: pkg.PkgPath, PkgName: pkg.Name, Main: pkg.Name == "main"}}
	t.Constructor, t.File, t.Line = funcOf(pkg, call.Args[0])
	if t.File == "" {
		pos := pkg.Fset.Position(call.Pos())
		t.File, t.Line = pos.Filename, pos.Line
	}
	if lit, ok := ast.Unparen(call.Args[1]).(*ast.CompositeLit); ok {
		t.program, _ = constField(info, lit, "Program")
	}
	if t.program == "" {
		t.program = appName(pkg, call.Args[0])
	}
	return t, true
}

// appName is the constant Name of the cli.App literal the constructor expression
// returns, when the constructor is declared in this package.
func appName(pkg *packages.Package, expr ast.Expr) string {
	var body *ast.BlockStmt
	switch e := ast.Unparen(expr).(type) {
	case *ast.FuncLit:
		body = e.Body
	case *ast.Ident:
		fn, _ := pkg.TypesInfo.Uses[e].(*types.Func)
		if fn == nil {
			return ""
		}
		for _, f := range pkg.Syntax {
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && pkg.TypesInfo.Defs[fd.Name] == fn {
					body = fd.Body
				}
			}
		}
	}
	if body == nil {
		return ""
	}
	name := ""
	ast.Inspect(body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.CompositeLit); ok && name == "" && isNamed(pkg.TypesInfo.TypeOf(lit), cliPkg, "App") {
			name, _ = constField(pkg.TypesInfo, lit, "Name")
		}
		return name == ""
	})
	return name
}

// registryOf is the package-level *legacy.Registry a registering call reaches: its
// receiver when that is such a variable (Default.AddApp), else, for a function
// (commands.Register, a local helper), the one registry variable declared in the
// function's package.
func registryOf(info *types.Info, call *ast.CallExpr) Qual {
	if call == nil {
		return Qual{}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		var id *ast.Ident
		switch x := ast.Unparen(sel.X).(type) {
		case *ast.Ident:
			id = x
		case *ast.SelectorExpr:
			id = x.Sel
		}
		if id != nil {
			if v, ok := info.Uses[id].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() &&
				isPtrTo(v.Type(), legacyPkg, "Registry") {
				return Qual{v.Pkg().Path(), v.Pkg().Name(), v.Name()}
			}
		}
	}
	fn := calledFunc(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == legacyPkg {
		return Qual{}
	}
	var found []Qual
	scope := fn.Pkg().Scope()
	for _, name := range scope.Names() {
		if v, ok := scope.Lookup(name).(*types.Var); ok && v.Exported() && isPtrTo(v.Type(), legacyPkg, "Registry") {
			found = append(found, Qual{fn.Pkg().Path(), fn.Pkg().Name(), name})
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return Qual{}
}

// heldBy is the variable a literal at the top of stack initialises (var c =
// legacy.Command{…}, c := legacy.Command{…}), when it does.
func heldBy(info *types.Info, stack []ast.Node) *types.Var {
	if len(stack) < 2 {
		return nil
	}
	lit := stack[len(stack)-1]
	var ids []*ast.Ident
	var values []ast.Expr
	switch p := stack[len(stack)-2].(type) {
	case *ast.ValueSpec:
		ids, values = p.Names, p.Values
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			id, _ := l.(*ast.Ident)
			ids = append(ids, id)
		}
		values = p.Rhs
	}
	for i, v := range values {
		if v == lit && i < len(ids) && ids[i] != nil {
			obj := info.Defs[ids[i]]
			if obj == nil {
				obj = info.Uses[ids[i]]
			}
			v, _ := obj.(*types.Var)
			return v
		}
	}
	return nil
}

// enclosingCall is the call a literal is an argument of, when it is one.
func enclosingCall(stack []ast.Node) *ast.CallExpr {
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.CallExpr:
			return n
		case *ast.ParenExpr, *ast.UnaryExpr:
			continue
		}
		return nil
	}
	return nil
}

// parentCommands are the constant names of the cli.Command literals enclosing the top
// of stack, nearest first.
func parentCommands(info *types.Info, stack []ast.Node) []string {
	var out []string
	for i := len(stack) - 2; i >= 0; i-- {
		if lit, ok := stack[i].(*ast.CompositeLit); ok && isNamed(info.TypeOf(lit), cliPkg, "Command") {
			name, _ := constField(info, lit, "Name")
			out = append(out, name)
		}
	}
	return out
}

// findLeaf returns the cli.Command literal of the leaf at path: among the literals
// named like its last element, the one whose enclosing literals match most of the
// path's other elements; a tie is no answer.
func (d *discovery) findLeaf(path []string) (leafLit, bool) {
	if len(path) == 0 {
		return leafLit{}, false
	}
	best, score, tie := leafLit{}, -1, false
	for _, l := range d.leaves {
		if l.name != path[len(path)-1] {
			continue
		}
		s := 0
		for i := 0; i < len(l.parents) && i < len(path)-1 && l.parents[i] == path[len(path)-2-i]; i++ {
			s++
		}
		if len(l.parents) > len(path)-1 {
			s = -1 // nested deeper than the path: another command of the same name
		}
		switch {
		case s > score:
			best, score, tie = l, s, false
		case s == score:
			tie = true
		}
	}
	return best, score >= 0 && !tie
}

// findTree returns the tree registration of program: the one whose Program (or app
// Name) is program, else the only one there is.
func (d *discovery) findTree(program string) (treeReg, bool) {
	var named []treeReg
	for _, t := range d.trees {
		if t.program == program {
			named = append(named, t)
		}
	}
	if len(named) == 1 {
		return named[0], true
	}
	if len(named) == 0 && len(d.trees) == 1 {
		return d.trees[0], true
	}
	return treeReg{}, false
}

// calledFunc is the function or method a call invokes, when static.
func calledFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		id = fn.Sel
	case *ast.Ident:
		id = fn
	case *ast.IndexExpr: // a generic function instantiated explicitly
		if x, ok := fn.X.(*ast.Ident); ok {
			id = x
		}
	}
	if id == nil {
		return nil
	}
	f, _ := info.Uses[id].(*types.Func)
	return f
}

// funcOf names the function an expression refers to and its declaration's position.
func funcOf(pkg *packages.Package, expr ast.Expr) (string, string, int) {
	var id *ast.Ident
	switch e := ast.Unparen(expr).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	}
	if id == nil {
		return "", "", 0
	}
	fn, ok := pkg.TypesInfo.Uses[id].(*types.Func)
	if !ok {
		return "", "", 0
	}
	pos := pkg.Fset.Position(fn.Pos())
	return fn.Name(), pos.Filename, pos.Line
}

func field(lit *ast.CompositeLit, name string) ast.Expr {
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if key, ok := kv.Key.(*ast.Ident); ok && key.Name == name {
				return kv.Value
			}
		}
	}
	return nil
}

// constField is the constant string value of a keyed field of a literal.
func constField(info *types.Info, lit *ast.CompositeLit, name string) (string, bool) {
	v := field(lit, name)
	if v == nil {
		return "", false
	}
	tv, ok := info.Types[v]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

func isNamed(t types.Type, pkg, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

func isPtrTo(t types.Type, pkg, name string) bool {
	p, ok := t.(*types.Pointer)
	return ok && isNamed(p.Elem(), pkg, name)
}

// only returns the one key of set, if it has exactly one.
func only(set map[Qual]bool) (Qual, bool) {
	if len(set) != 1 {
		return Qual{}, false
	}
	for q := range set {
		return q, true
	}
	return Qual{}, false
}

// funcPackage is the import path of the package declaring f (a function value), from
// the runtime's symbol name, or "" when it cannot tell.
func funcPackage(f any) string {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return ""
	}
	rf := runtime.FuncForPC(v.Pointer())
	if rf == nil {
		return ""
	}
	name := rf.Name()
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return name[:slash+1+dot]
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
