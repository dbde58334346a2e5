package procglobals

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/cmdbridge/cmdbridge/bridgecheck/internal/scope"
)

// Doc is the analyzer's documentation.
const Doc = `report process-wide state in legacy command packages

procglobals reports, in legacy command packages, what outlives one in-process run or
changes the whole host process: package-level *cli.App, cli.Flag and []cli.Flag values
(global-app, global-flags), package-level values bound to os.Stdout or os.Stderr at
their declaration or in an init function, such as loggers (global-stream), os.Chdir
and (*os.File).Chdir (chdir), os.Setenv, os.Unsetenv and os.Clearenv (setenv).`

// Analyzer is the procglobals pass. Its result is the []scope.Finding it reported.
var Analyzer = &analysis.Analyzer{
	Name:       "procglobals",
	Doc:        Doc,
	URL:        "https://github.com/cmdbridge/cmdbridge/blob/main/docs/adapter-safety.md#rule-families",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer, scope.Analyzer},
	ResultType: reflect.TypeOf([]scope.Finding(nil)),
}

func run(pass *analysis.Pass) (any, error) {
	sc := pass.ResultOf[scope.Analyzer].(*scope.Scope)
	if !sc.Legacy {
		return []scope.Finding(nil), nil
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &check{pass: pass, cliFlag: findCLIFlag(pass.Pkg)}
	for cur := range insp.Root().Preorder((*ast.ValueSpec)(nil), (*ast.AssignStmt)(nil), (*ast.SelectorExpr)(nil)) {
		if !sc.Checked(cur.Node().Pos()) {
			continue
		}
		switch n := cur.Node().(type) {
		case *ast.ValueSpec:
			if gen, ok := cur.Parent().Node().(*ast.GenDecl); ok && gen.Tok == token.VAR &&
				cur.Parent().ParentEdgeKind() == edge.File_Decls {
				c.global(cur, n)
			}
		case *ast.AssignStmt:
			if inInit(cur) {
				c.initAssign(cur, n)
			}
		case *ast.SelectorExpr:
			c.processCall(n)
		}
	}
	for _, f := range c.findings {
		scope.Report(pass, f)
	}
	return c.findings, nil
}

type check struct {
	pass     *analysis.Pass
	cliFlag  *types.Interface // urfave/cli's Flag, nil when the package cannot see it
	findings []scope.Finding
}

func (c *check) add(rule, subject string, pos token.Pos) {
	c.findings = append(c.findings, scope.Finding{Rule: rule, Subject: subject, Pos: pos})
}

// global reports a package-level app, flag, or value bound to a standard stream.
func (c *check) global(cur inspector.Cursor, vs *ast.ValueSpec) {
	info := c.pass.TypesInfo
	for i, name := range vs.Names {
		obj := info.Defs[name]
		if obj == nil || name.Name == "_" && len(vs.Values) == 0 {
			continue
		}
		t := obj.Type()
		typ := types.TypeString(t, shortQualifier)
		switch {
		case scope.IsCLI(t, "App"):
			c.add(scope.RuleGlobalApp, "var "+name.Name+" "+typ, name.Pos())
		case c.isFlag(t):
			c.add(scope.RuleGlobalFlags, "var "+name.Name+" "+typ, name.Pos())
		}
		if v := valueFor(vs, i); v != nil {
			if s := streamIn(info, cur, v); s != "" {
				c.add(scope.RuleGlobalStream, "var "+name.Name+" (bound to "+s+")", name.Pos())
			}
		}
	}
}

// initAssign reports an assignment, in an init function, of a standard stream to a
// package-level variable.
func (c *check) initAssign(cur inspector.Cursor, as *ast.AssignStmt) {
	if len(as.Lhs) != len(as.Rhs) {
		return
	}
	info := c.pass.TypesInfo
	for i, lhs := range as.Lhs {
		id, ok := lhs.(*ast.Ident)
		if !ok {
			continue
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.Parent() != c.pass.Pkg.Scope() {
			continue
		}
		if s := streamIn(info, cur, as.Rhs[i]); s != "" {
			c.add(scope.RuleGlobalStream, "var "+id.Name+" (bound to "+s+" in init)", id.Pos())
		}
	}
}

// inInit reports whether cur is in the body of an init function and not inside a
// function literal there (which runs later, if at all).
func inInit(cur inspector.Cursor) bool {
	for fc := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		fd, ok := fc.Node().(*ast.FuncDecl)
		return ok && fd.Recv == nil && fd.Name.Name == "init" && fd.Body != nil
	}
	return false
}

// processCall reports references to the functions that change the host process's
// working directory or environment.
func (c *check) processCall(sel *ast.SelectorExpr) {
	fn, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "os" {
		return
	}
	name := fn.Name()
	recv := fn.Signature().Recv()
	subject := "os." + name
	if recv != nil {
		subject = "(" + types.TypeString(recv.Type(), shortQualifier) + ")." + name
	}
	switch {
	case name == "Chdir": // os.Chdir and (*os.File).Chdir
		c.add(scope.RuleChdir, subject, sel.Pos())
	case recv == nil && (name == "Setenv" || name == "Unsetenv" || name == "Clearenv"):
		c.add(scope.RuleSetenv, subject, sel.Pos())
	}
}

func shortQualifier(p *types.Package) string { return p.Name() }

// valueFor is the initialiser of the i-th name of vs (nil for a multi-value call).
func valueFor(vs *ast.ValueSpec, i int) ast.Expr {
	if len(vs.Values) == len(vs.Names) {
		return vs.Values[i]
	}
	if len(vs.Values) == 1 {
		return vs.Values[0]
	}
	return nil
}

// streamIn names os.Stdout or os.Stderr when e (a node below cur) evaluates it now,
// that is outside any function literal (a closure reads the variable when it runs,
// which is safe).
func streamIn(info *types.Info, cur inspector.Cursor, e ast.Expr) string {
	ec, ok := cur.FindNode(e)
	if !ok {
		return ""
	}
	found := ""
	ec.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.SelectorExpr)(nil)}, func(c inspector.Cursor) bool {
		if found != "" {
			return false
		}
		sel, ok := c.Node().(*ast.SelectorExpr)
		if !ok {
			return false // a function literal
		}
		if v, ok := info.Uses[sel.Sel].(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "os" &&
			(v.Name() == "Stdout" || v.Name() == "Stderr") {
			found = "os." + v.Name()
		}
		return true
	})
	return found
}

// isFlag reports whether t is a cli.Flag, a type implementing it, or a slice or array
// of those.
func (c *check) isFlag(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return c.isFlag(u.Elem())
	case *types.Array:
		return c.isFlag(u.Elem())
	}
	if scope.IsCLI(t, "Flag") {
		return true
	}
	if c.cliFlag == nil {
		return false
	}
	if _, isIface := t.Underlying().(*types.Interface); isIface {
		return false // any, error…: not a flag by themselves
	}
	// A package-level struct value is addressable: its pointer methods count.
	return types.Implements(t, c.cliFlag) || types.Implements(types.NewPointer(t), c.cliFlag)
}

// findCLIFlag finds urfave/cli's Flag interface among pkg's imports, transitively.
func findCLIFlag(pkg *types.Package) *types.Interface {
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package) *types.Interface
	walk = func(p *types.Package) *types.Interface {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == scope.CLIPath {
			if obj := p.Scope().Lookup("Flag"); obj != nil {
				if it, ok := obj.Type().Underlying().(*types.Interface); ok {
					return it
				}
			}
			return nil
		}
		for _, imp := range p.Imports() {
			if it := walk(imp); it != nil {
				return it
			}
		}
		return nil
	}
	return walk(pkg)
}
