package nativeglobals

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/cmdbridge/cmdbridge/bridgecheck/internal/scope"
)

// Doc is the analyzer's documentation.
const Doc = `report process globals in native tool packages

nativeglobals reports, in native tool packages (-native, "**/nativetools/**" by
default), every package-qualified use of os.Stdout, Stderr, Stdin, Args, Exit, Getenv,
LookupEnv, Environ, ExpandEnv, Getwd, Chdir, Setenv, Unsetenv, Clearenv and of the flag
and log packages (native-global): native tools run concurrently in the host process
and get all of these from their tool.Env.

A function or method of another package that uses one of those globals, directly or
through functions it refers to (its ReadsGlobal fact, computed for every package outside
the standard library), is reported where a native tool package refers to it:
"[native-global] store.InWorkTree (which reads os.LookupEnv)". Calls through
interfaces and function values, the standard library and two vetted dependencies
(jsonschema-go, fsnotify: their own debug switches) are not followed.`

// Analyzer is the nativeglobals pass. Its result is the []scope.Finding it reported. Its
// fact, on functions of every package outside the standard library, says they use a
// process global.
var Analyzer = &analysis.Analyzer{
	Name:       "nativeglobals",
	Doc:        Doc,
	URL:        "https://github.com/cmdbridge/cmdbridge/blob/main/docs/adapter-safety.md#rule-families",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer, scope.Analyzer},
	ResultType: reflect.TypeOf([]scope.Finding(nil)),
	FactTypes:  []analysis.Fact{(*ReadsGlobal)(nil)},
}

// ReadsGlobal is the fact that a function uses a process global: its body refers to one
// of the os globals, to a function or variable of the flag or log package that works on
// the package's default state, or to a function that does (in its package or, by this
// fact, in another). Calls through interfaces and function values are not followed.
type ReadsGlobal struct {
	// Via is the global in the end: "os.LookupEnv", "log.Printf"…
	Via string
}

// AFact marks ReadsGlobal as an analysis fact.
func (*ReadsGlobal) AFact() {}

func (r *ReadsGlobal) String() string { return "reads " + r.Via }

// globals are the os identifiers a native tool must not touch.
var globals = map[string]bool{
	"Stdout": true, "Stderr": true, "Stdin": true, "Args": true, "Exit": true,
	"Getenv": true, "LookupEnv": true, "Environ": true, "ExpandEnv": true, "Getwd": true,
	"Chdir": true, "Setenv": true, "Unsetenv": true, "Clearenv": true,
}

// ownState are the functions and variables of flag and log that do not touch the
// package's default state: they build or describe a value the caller holds.
var ownState = map[string]bool{
	"flag.NewFlagSet": true, "flag.UnquoteUsage": true, "flag.ErrHelp": true,
	"log.New": true,
}

func run(pass *analysis.Pass) (any, error) {
	sc := pass.ResultOf[scope.Analyzer].(*scope.Scope)
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	if exporting(pass.Pkg.Path()) {
		exportReads(pass, sc, insp)
	}
	if !sc.Native {
		return []scope.Finding(nil), nil
	}
	var out []scope.Finding
	for cur := range insp.Root().Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		if !sc.Checked(sel.Pos()) {
			continue
		}
		path := importedPath(pass.TypesInfo, sel.X)
		subject := ""
		switch {
		case path == "os" && globals[sel.Sel.Name] || path == "flag" || path == "log":
			subject = path + "." + sel.Sel.Name
		default:
			// A function of another package that reaches a global: reported where the
			// native package refers to it (its own package reports the use itself when
			// it is a native package too).
			fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg() == pass.Pkg {
				continue
			}
			var r ReadsGlobal
			if !pass.ImportObjectFact(fn.Origin(), &r) {
				continue
			}
			subject = funcName(fn) + " (which reads " + r.Via + ")"
		}
		f := scope.Finding{Rule: scope.RuleNativeGlobal, Subject: subject, Pos: sel.Pos()}
		out = append(out, f)
		scope.Report(pass, f)
	}
	return out, nil
}

// funcName is fn as a diagnostic names it: "gitrepo.InWorkTree",
// "(*gitrepo.Git).Output".
func funcName(fn *types.Func) string {
	if recv := fn.Signature().Recv(); recv != nil {
		return "(" + types.TypeString(recv.Type(), func(p *types.Package) string { return p.Name() }) + ")." + fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

// importedPath is the import path of the package x names, or "".
func importedPath(info *types.Info, x ast.Expr) string {
	id, ok := x.(*ast.Ident)
	if !ok {
		return ""
	}
	if pn, ok := info.Uses[id].(*types.PkgName); ok {
		return pn.Imported().Path()
	}
	return ""
}

// global names obj when it is a process global a function must not use on a native
// tool's behalf: one of the os globals, or a package-level function or variable of flag
// or log that works on the package's default state; "" otherwise.
func global(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
		return "" // methods, fields, locals
	}
	name := obj.Pkg().Path() + "." + obj.Name()
	switch obj.(type) {
	case *types.Func, *types.Var:
	default:
		return "" // types and constants
	}
	switch obj.Pkg().Path() {
	case "os":
		if globals[obj.Name()] {
			return name
		}
	case "flag", "log":
		if !ownState[name] {
			return name
		}
	}
	return ""
}

// vetted are the modules outside the standard library whose uses of process globals are
// their own debug switches, read or written only when a person sets them: their
// functions get no fact. Each entry says why.
var vetted = map[string]string{
	"github.com/google/jsonschema-go": "schema inference reads JSONSCHEMAGODEBUG, a library setting like GODEBUG (native.New infers at registration)",
	"github.com/fsnotify/fsnotify":    "reads FSNOTIFY_DEBUG and prints debug lines to os.Stderr only when it is set",
}

// exporting reports whether functions of the package at path get ReadsGlobal facts:
// every package outside the standard library (whose first path element has no dot)
// and the vetted modules. The standard library's own uses (os/exec's PATH lookup, the
// default logger behind log's functions) are not followed: the os, flag and log names
// above are where they begin for the code checked.
func exporting(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if !strings.Contains(first, ".") {
		return false
	}
	for m := range vetted {
		if path == m || strings.HasPrefix(path, m+"/") {
			return false
		}
	}
	return true
}

// exportReads exports a ReadsGlobal fact for every function and method of the package
// whose body uses a process global: directly, through another package's function with
// the fact, or through one of the package's own (to a fixed point).
func exportReads(pass *analysis.Pass, sc *scope.Scope, insp *inspector.Inspector) {
	order, via := scope.Reaching(pass, sc, insp, func(obj types.Object) string {
		if g := global(obj); g != "" {
			return g
		}
		var r ReadsGlobal
		if callee, ok := obj.(*types.Func); ok && callee.Pkg() != nil && pass.ImportObjectFact(callee, &r) {
			return r.Via
		}
		return ""
	})
	for _, fn := range order {
		if v := via[fn]; v != "" {
			pass.ExportObjectFact(fn, &ReadsGlobal{Via: v})
		}
	}
}
