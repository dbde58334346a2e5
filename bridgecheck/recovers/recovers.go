package recovers

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
const Doc = `report recover() in legacy command packages

recovers reports every call of the recover builtin in legacy command packages
(recover): in-process, the adapter's exit signal is a panic, and a recover on the way
swallows it, so code after cli.OsExiter keeps running.`

// Analyzer is the recovers pass. Its result is the []scope.Finding it reported.
var Analyzer = &analysis.Analyzer{
	Name:       "recovers",
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
	var out []scope.Finding
	for cur := range insp.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if !sc.Checked(call.Pos()) {
			continue
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			continue
		}
		if b, ok := pass.TypesInfo.Uses[id].(*types.Builtin); !ok || b.Name() != "recover" {
			continue
		}
		f := scope.Finding{Rule: scope.RuleRecover, Subject: "recover()", Pos: call.Pos()}
		out = append(out, f)
		scope.Report(pass, f)
	}
	return out, nil
}
