package exitcall

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/cmdbridge/cmdbridge/bridgecheck/internal/scope"
)

// Doc is the analyzer's documentation.
const Doc = `report calls that end or unwind the process in legacy command packages

exitcall reports os.Exit, log.Fatal* (also (*log.Logger).Fatal*), log.Panic* and
urfave/cli's Show*AndExit in legacy command packages: in-process under the cmdbridge
adapter they end the host or slip past it. A function of another package that ends in
one of them (its Exits fact) is reported where a legacy package refers to it.

Suggested fixes, offered only where they keep what the real process does and the file
already imports urfave/cli:
  - os.Exit(n) as a statement of an action (a func(*cli.Context) error) becomes
    return cli.Exit("", n); anywhere else os.Exit becomes cli.OsExiter, which a real
    process runs as os.Exit and the adapter catches;
  - log.Fatal*(…) as a statement becomes log.Print*(…) followed by return cli.Exit("", 1)
    in an action, cli.OsExiter(1) elsewhere;
  - cli.Show*HelpAndExit(c, …, code) as a statement becomes _ = cli.Show*Help(c, …)
    followed by return cli.Exit("", code) in an action, cli.OsExiter(code) elsewhere.
log.Panic* has no fix: a panic's meaning depends on who recovers it.`

// Analyzer is the exitcall pass. Its result is the []scope.Finding it reported. Its
// fact, on functions of other packages, says they can end the process.
var Analyzer = &analysis.Analyzer{
	Name:       "exitcall",
	Doc:        Doc,
	URL:        "https://github.com/cmdbridge/cmdbridge/blob/main/docs/adapter-safety.md#rule-families",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer, scope.Analyzer},
	ResultType: reflect.TypeOf([]scope.Finding(nil)),
	FactTypes:  []analysis.Fact{(*Exits)(nil)},
}

// Exits is the fact that a function can end the process: its body refers to os.Exit,
// log.Fatal*, urfave/cli's Show*AndExit, or a function that can (in its package or, by
// this fact, in another). It is computed for every package outside the standard
// library and urfave/cli, legacy or not, so that a command calling a helper of another
// package that exits is reported at the call.
type Exits struct {
	// Via is the exiting function in the end: "os.Exit", "log.Fatalf"…
	Via string
}

// AFact marks Exits as an analysis fact.
func (*Exits) AFact() {}

func (e *Exits) String() string { return "exits via " + e.Via }

func run(pass *analysis.Pass) (any, error) {
	sc := pass.ResultOf[scope.Analyzer].(*scope.Scope)
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	if exporting(pass.Pkg.Path()) {
		exportExits(pass, sc, insp)
	}
	if !sc.Legacy {
		return []scope.Finding(nil), nil
	}
	var out []scope.Finding
	for cur := range insp.Root().Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		if !sc.Checked(sel.Pos()) {
			continue
		}
		fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
		if !ok || fn.Pkg() == nil {
			continue
		}
		name := fn.Name()
		recv := fn.Signature().Recv()
		subject := fn.Pkg().Name() + "." + name
		if recv != nil {
			subject = "(" + types.TypeString(recv.Type(), func(p *types.Package) string { return p.Name() }) + ")." + name
		}
		rule := ""
		switch fn.Pkg().Path() {
		case "os":
			if recv == nil && name == "Exit" {
				rule = scope.RuleOsExit
			}
		case "log":
			switch {
			case strings.HasPrefix(name, "Fatal"):
				rule = scope.RuleLogFatal
			case strings.HasPrefix(name, "Panic"):
				rule = scope.RuleLogPanic
			}
		case scope.CLIPath:
			if recv == nil && strings.HasPrefix(name, "Show") && strings.HasSuffix(name, "AndExit") {
				rule = scope.RuleShowAndExit
			}
		}
		if rule == "" && fn.Pkg() != pass.Pkg {
			// A helper of another package that exits: reported where this package
			// reaches it (the helper's own package reports the exit itself when it is a
			// legacy package).
			var e Exits
			if pass.ImportObjectFact(fn.Origin(), &e) {
				rule, subject = scope.RuleOsExit, subject+" (which ends in "+e.Via+")"
			}
		}
		if rule == "" {
			continue
		}
		f := scope.Finding{Rule: rule, Subject: subject, Pos: sel.Pos()}
		out = append(out, f)
		var fixes []analysis.SuggestedFix
		if fx, ok := fix(pass, cur, rule, fn); ok && isExit(fn) != "" {
			fixes = append(fixes, fx)
		}
		scope.Report(pass, f, fixes...)
	}
	return out, nil
}

// isExit names fn when it ends the process by itself: os.Exit, log.Fatal* (also a
// *log.Logger's) or urfave/cli's Show*AndExit; "" otherwise.
func isExit(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	name, recv := fn.Name(), fn.Signature().Recv()
	switch fn.Pkg().Path() {
	case "os":
		if recv == nil && name == "Exit" {
			return "os.Exit"
		}
	case "log":
		if strings.HasPrefix(name, "Fatal") {
			if recv != nil {
				return "(*log.Logger)." + name
			}
			return "log." + name
		}
	case scope.CLIPath:
		if recv == nil && strings.HasPrefix(name, "Show") && strings.HasSuffix(name, "AndExit") {
			return "cli." + name
		}
	}
	return ""
}

// exporting reports whether functions of the package at path get Exits facts: not
// the standard library (whose exits, such as flag.ExitOnError, are a caller's explicit
// choice) and not urfave/cli (whose Show*AndExit are reported by name).
func exporting(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return strings.Contains(first, ".") && path != scope.CLIPath && !strings.HasPrefix(path, scope.CLIPath+"/")
}

// exportExits exports an Exits fact for every function and method of the package whose
// body refers to an exiting function: directly, through another package's function
// with the fact, or through one of the package's own (to a fixed point).
func exportExits(pass *analysis.Pass, sc *scope.Scope, insp *inspector.Inspector) {
	order, via := scope.Reaching(pass, sc, insp, func(obj types.Object) string {
		callee, ok := obj.(*types.Func)
		if !ok {
			return ""
		}
		if v := isExit(callee); v != "" {
			return v
		}
		var e Exits
		if pass.ImportObjectFact(callee, &e) {
			return e.Via
		}
		return ""
	})
	for _, fn := range order {
		if v := via[fn]; v != "" {
			pass.ExportObjectFact(fn, &Exits{Via: v})
		}
	}
}

// fix returns the suggested fix for the finding at cur (a selector naming fn), when one
// keeps the real process's behaviour.
func fix(pass *analysis.Pass, cur inspector.Cursor, rule string, fn *types.Func) (analysis.SuggestedFix, bool) {
	sel := cur.Node().(*ast.SelectorExpr)
	cli, ok := cliName(pass, cur)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	call, stmt := statementCall(cur)
	action := inAction(pass, cur)
	// exit is what ends the run after the statement: returned in an action, through the
	// adapter's hook elsewhere.
	exit := func(code string) string {
		if action {
			return "return " + cli + `.Exit("", ` + code + ")"
		}
		return cli + ".OsExiter(" + code + ")"
	}
	switch rule {
	case scope.RuleOsExit:
		if stmt != nil && action && len(call.Args) == 1 {
			return analysis.SuggestedFix{
				Message:   "return " + cli + ".Exit from the action",
				TextEdits: []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(exit(source(pass, call.Args[0])))}},
			}, true
		}
		return analysis.SuggestedFix{
			Message:   "exit through " + cli + ".OsExiter",
			TextEdits: []analysis.TextEdit{{Pos: sel.Pos(), End: sel.End(), NewText: []byte(cli + ".OsExiter")}},
		}, true
	case scope.RuleLogFatal:
		if stmt == nil {
			return analysis.SuggestedFix{}, false
		}
		msg := "log, then " + exit("1")
		return analysis.SuggestedFix{
			Message: msg,
			TextEdits: []analysis.TextEdit{
				{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("Print" + strings.TrimPrefix(fn.Name(), "Fatal"))},
				{Pos: stmt.End(), End: stmt.End(), NewText: []byte("\n" + indent(pass, stmt) + exit("1"))},
			},
		}, true
	case scope.RuleShowAndExit:
		help := strings.TrimSuffix(fn.Name(), "AndExit")
		if stmt == nil || len(call.Args) == 0 || !returnsError(fn.Pkg().Scope().Lookup(help)) {
			return analysis.SuggestedFix{}, false
		}
		var args []string
		for _, a := range call.Args[:len(call.Args)-1] {
			args = append(args, source(pass, a))
		}
		code := source(pass, call.Args[len(call.Args)-1])
		text := "_ = " + cli + "." + help + "(" + strings.Join(args, ", ") + ")\n" + indent(pass, stmt) + exit(code)
		return analysis.SuggestedFix{
			Message:   "call " + cli + "." + help + ", then " + exit(code),
			TextEdits: []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(text)}},
		}, true
	}
	return analysis.SuggestedFix{}, false
}

// statementCall returns the call whose function cur is, and its expression statement
// when the call is a whole statement of a statement list (where one statement can
// become two).
func statementCall(cur inspector.Cursor) (*ast.CallExpr, *ast.ExprStmt) {
	if cur.ParentEdgeKind() != edge.CallExpr_Fun {
		return nil, nil
	}
	callCur := cur.Parent()
	call := callCur.Node().(*ast.CallExpr)
	if callCur.ParentEdgeKind() != edge.ExprStmt_X {
		return call, nil
	}
	stmtCur := callCur.Parent()
	switch stmtCur.ParentEdgeKind() {
	case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
		return call, stmtCur.Node().(*ast.ExprStmt)
	}
	return call, nil
}

// inAction reports whether the innermost function around cur is an action: a
// func(*cli.Context) error, whose returned error urfave/cli turns into the exit.
func inAction(pass *analysis.Pass, cur inspector.Cursor) bool {
	for fc := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var t types.Type
		switch n := fc.Node().(type) {
		case *ast.FuncDecl:
			if obj := pass.TypesInfo.Defs[n.Name]; obj != nil {
				t = obj.Type()
			}
		case *ast.FuncLit:
			t = pass.TypesInfo.TypeOf(n)
		}
		sig, ok := t.(*types.Signature)
		if !ok {
			return false
		}
		return sig.Recv() == nil && sig.Params().Len() == 1 && scope.IsCLI(sig.Params().At(0).Type(), "Context") &&
			isPointer(sig.Params().At(0).Type()) && sig.Results().Len() == 1 &&
			types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())
	}
	return false
}

func isPointer(t types.Type) bool { _, ok := t.(*types.Pointer); return ok }

// returnsError reports whether obj is a function whose only result is an error.
func returnsError(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	res := fn.Signature().Results()
	return res.Len() == 1 && types.Identical(res.At(0).Type(), types.Universe.Lookup("error").Type())
}

// cliName is the name under which the file around cur imports urfave/cli, when that
// name still means the package at cur.
func cliName(pass *analysis.Pass, cur inspector.Cursor) (string, bool) {
	var file *ast.File
	for fc := range cur.Enclosing((*ast.File)(nil)) {
		file = fc.Node().(*ast.File)
	}
	if file == nil {
		return "", false
	}
	for _, spec := range file.Imports {
		pn := pass.TypesInfo.PkgNameOf(spec)
		if pn == nil || pn.Imported().Path() != scope.CLIPath || pn.Name() == "_" || pn.Name() == "." {
			continue
		}
		pos := cur.Node().Pos()
		if _, obj := pass.Pkg.Scope().Innermost(pos).LookupParent(pn.Name(), pos); obj == pn {
			return pn.Name(), true
		}
	}
	return "", false
}

// source is n as written in its file.
func source(pass *analysis.Pass, n ast.Node) string {
	tf := pass.Fset.File(n.Pos())
	if b, err := pass.ReadFile(tf.Name()); err == nil && tf.Offset(n.End()) <= len(b) {
		return string(b[tf.Offset(n.Pos()):tf.Offset(n.End())])
	}
	return types.ExprString(n.(ast.Expr))
}

// indent is the white space that starts the line of n.
func indent(pass *analysis.Pass, n ast.Node) string {
	tf := pass.Fset.File(n.Pos())
	b, err := pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	start := tf.Offset(tf.LineStart(tf.Line(n.Pos())))
	end := tf.Offset(n.Pos())
	if end > len(b) || start > end {
		return ""
	}
	ws := b[start:end]
	if strings.Trim(string(ws), " \t") != "" {
		return ""
	}
	return string(ws)
}
