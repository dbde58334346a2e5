package goroutines

import (
	"go/ast"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/cmdbridge/cmdbridge/bridgecheck/internal/scope"
)

// Doc is the analyzer's documentation.
const Doc = `report go statements that a legacy command's run can execute

goroutines reports, in legacy command packages, go statements in code reachable by
references from a command registration's New and Main, from a cli.App or cli.Command
Action, Before or After, or, in a package that registers no command, from its
exported functions and methods (go-in-action). A goroutine can outlive the in-process
run that started it.`

// Analyzer is the goroutines pass. Its result is the []scope.Finding it reported.
var Analyzer = &analysis.Analyzer{
	Name:       "goroutines",
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
	for cur := range insp.Root().Preorder((*ast.GoStmt)(nil)) {
		pos := cur.Node().Pos()
		if !sc.Checked(pos) || !sc.Reached(pos) {
			continue
		}
		f := scope.Finding{Rule: scope.RuleGoInAction, Subject: "go statement", Pos: pos}
		out = append(out, f)
		scope.Report(pass, f)
	}
	return out, nil
}
