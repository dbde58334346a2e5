package mainlogic

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cmdbridge/cmdbridge/bridgecheck/internal/scope"
)

// Doc is the analyzer's documentation.
const Doc = `report what a program's main does around app.Run that the in-process lane skips

In a package main that builds its urfave/cli app, main's statements other than building
the app, running it and the default error report (print the error, exit 1) do not run
in-process: loading .env, formatting errors, choosing an exit status. Each is reported
unless the package sets host.Config.Prepare, the hook that runs them in-process.`

// Analyzer is the mainlogic pass. Its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "mainlogic",
	Doc:        Doc,
	URL:        "https://github.com/cmdbridge/cmdbridge/blob/main/docs/adapter-safety.md#what-main-does",
	Run:        run,
	Requires:   []*analysis.Analyzer{scope.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// ConfigPath is the import path of host.Config's package (the in-process line).
const ConfigPath = "github.com/cmdbridge/cmdbridge/host"

// Result is what main does that the in-process lane skips.
type Result struct {
	// Findings are reported: main's logic, no Prepare set.
	Findings []scope.Finding
	// Prepare is where the package sets host.Config.Prepare (NoPos: nowhere);
	// Notes are then main's logic, not reported.
	Prepare token.Pos
	Notes   []scope.Finding
}

func run(pass *analysis.Pass) (any, error) {
	sc := pass.ResultOf[scope.Analyzer].(*scope.Scope)
	res := &Result{}
	if sc.Main == nil {
		return res, nil
	}
	res.Prepare = preparePos(pass)
	var logic []scope.Finding
	c := checker{pass: pass, runErrs: map[types.Object]bool{}}
	c.stmts(sc.Main.Body.List, false, func(s ast.Stmt) {
		logic = append(logic, scope.Finding{Rule: scope.RuleMainLogic, Subject: c.describe(s), Pos: s.Pos()})
	})
	if res.Prepare.IsValid() {
		res.Notes = logic
		return res, nil
	}
	for _, f := range logic {
		scope.Report(pass, f)
	}
	res.Findings = logic
	return res, nil
}

// preparePos is where a host.Config literal of the package sets Prepare.
func preparePos(pass *analysis.Pass) token.Pos {
	for _, f := range pass.Files {
		var pos token.Pos
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || pos.IsValid() || !isConfig(pass.TypesInfo.TypeOf(lit)) {
				return !pos.IsValid()
			}
			for _, el := range lit.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Prepare" {
						pos = kv.Pos()
					}
				}
			}
			return true
		})
		if pos.IsValid() {
			return pos
		}
	}
	return token.NoPos
}

func isConfig(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == ConfigPath && n.Obj().Name() == "Config"
}

type checker struct {
	pass    *analysis.Pass
	runErrs map[types.Object]bool // variables holding the error Run returned
}

// stmts calls logic for each statement of list that is neither building the app,
// running it, nor (in the branch taken when Run failed) the default error report.
func (c *checker) stmts(list []ast.Stmt, onError bool, logic func(ast.Stmt)) {
	for _, s := range list {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if c.builds(s.Lhs, s.Rhs) {
				continue
			}
		case *ast.DeclStmt:
			if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR && c.buildsSpecs(gd) {
				continue
			}
		case *ast.ExprStmt:
			if c.isRun(s.X) || (onError && c.defaultReport(s.X)) {
				continue
			}
		case *ast.IfStmt:
			if (s.Init == nil || c.initRuns(s.Init)) && s.Else == nil && c.isRunErrCheck(s.Cond) {
				c.stmts(s.Body.List, true, logic)
				continue
			}
		}
		logic(s)
	}
}

// builds reports whether an assignment builds the app: every value is an app, or every
// target a field of one, or the values are Run's results.
func (c *checker) builds(lhs, rhs []ast.Expr) bool {
	info := c.pass.TypesInfo
	if len(rhs) == 1 && c.isRun(rhs[0]) {
		for _, l := range lhs {
			if id, ok := l.(*ast.Ident); ok {
				if obj := info.ObjectOf(id); obj != nil {
					c.runErrs[obj] = true
				}
			}
		}
		return true
	}
	apps := true
	for _, r := range rhs {
		if !scope.IsApp(info.TypeOf(r)) {
			apps = false
		}
	}
	if apps {
		return true
	}
	for _, l := range lhs {
		sel, ok := l.(*ast.SelectorExpr)
		if !ok || !scope.IsApp(info.TypeOf(sel.X)) {
			return false
		}
	}
	return true
}

func (c *checker) buildsSpecs(gd *ast.GenDecl) bool {
	for _, sp := range gd.Specs {
		vs, ok := sp.(*ast.ValueSpec)
		if !ok {
			return false
		}
		var lhs []ast.Expr
		for _, n := range vs.Names {
			lhs = append(lhs, n)
		}
		if len(vs.Values) == 0 || !c.builds(lhs, vs.Values) {
			return false
		}
	}
	return true
}

// isRun reports whether e runs the app (scope.IsRunMethod: a v2 App's Run or
// RunContext, a v3 Command's Run, a cobra Command's Execute…).
func (c *checker) isRun(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && scope.IsRunMethod(c.pass.TypesInfo.TypeOf(sel.X), sel.Sel.Name)
}

func (c *checker) initRuns(s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	return ok && c.builds(as.Lhs, as.Rhs) && len(as.Rhs) == 1 && c.isRun(as.Rhs[0])
}

// isRunErrCheck reports whether cond is `err != nil` with err Run's result.
func (c *checker) isRunErrCheck(cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	id, ok := ast.Unparen(b.X).(*ast.Ident)
	if !ok {
		return false
	}
	nilID, ok := ast.Unparen(b.Y).(*ast.Ident)
	return ok && nilID.Name == "nil" && c.runErrs[c.pass.TypesInfo.ObjectOf(id)]
}

// defaultReport reports whether e is what the in-process lane does without Prepare:
// fmt.Fprintln(os.Stderr, err) or os.Exit(1).
func (c *checker) defaultReport(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	switch c.funcName(call.Fun) {
	case "os.Exit":
		if len(call.Args) != 1 {
			return false
		}
		tv, ok := c.pass.TypesInfo.Types[call.Args[0]]
		return ok && tv.Value != nil && constant.Compare(tv.Value, token.EQL, constant.MakeInt64(1))
	case "fmt.Fprintln":
		if len(call.Args) != 2 || c.funcName(call.Args[0]) != "os.Stderr" {
			return false
		}
		id, ok := ast.Unparen(call.Args[1]).(*ast.Ident)
		return ok && c.runErrs[c.pass.TypesInfo.ObjectOf(id)]
	}
	return false
}

// funcName is pkg.Name for a selector naming a package-level object.
func (c *checker) funcName(e ast.Expr) string {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	obj := c.pass.TypesInfo.Uses[sel.Sel]
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// describe is the statement's first line as written, shortened.
func (c *checker) describe(s ast.Stmt) string {
	tf := c.pass.Fset.File(s.Pos())
	b, err := c.pass.ReadFile(tf.Name())
	if err != nil || tf.Offset(s.End()) > len(b) {
		return "a statement of main"
	}
	text := string(b[tf.Offset(s.Pos()):tf.Offset(s.End())])
	text, _, _ = strings.Cut(text, "\n")
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "{"))
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	return text
}
