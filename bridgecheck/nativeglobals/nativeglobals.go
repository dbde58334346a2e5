package nativeglobals

import (
	"go/ast"
	"go/types"
	"reflect"

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
and get all of these from their tool.Env.`

// Analyzer is the nativeglobals pass. Its result is the []scope.Finding it reported.
var Analyzer = &analysis.Analyzer{
	Name:       "nativeglobals",
	Doc:        Doc,
	URL:        "https://github.com/cmdbridge/cmdbridge/blob/main/docs/adapter-safety.md#rule-families",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer, scope.Analyzer},
	ResultType: reflect.TypeOf([]scope.Finding(nil)),
}

// globals are the os identifiers a native tool must not touch.
var globals = map[string]bool{
	"Stdout": true, "Stderr": true, "Stdin": true, "Args": true, "Exit": true,
	"Getenv": true, "LookupEnv": true, "Environ": true, "ExpandEnv": true, "Getwd": true,
	"Chdir": true, "Setenv": true, "Unsetenv": true, "Clearenv": true,
}

func run(pass *analysis.Pass) (any, error) {
	sc := pass.ResultOf[scope.Analyzer].(*scope.Scope)
	if !sc.Native {
		return []scope.Finding(nil), nil
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	var out []scope.Finding
	for cur := range insp.Root().Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		if !sc.Checked(sel.Pos()) {
			continue
		}
		path := importedPath(pass.TypesInfo, sel.X)
		if path == "os" && globals[sel.Sel.Name] || path == "flag" || path == "log" {
			f := scope.Finding{Rule: scope.RuleNativeGlobal, Subject: path + "." + sel.Sel.Name, Pos: sel.Pos()}
			out = append(out, f)
			scope.Report(pass, f)
		}
	}
	return out, nil
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
