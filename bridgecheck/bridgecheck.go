package bridgecheck

import (
	"go/token"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/cmdbridge/cmdbridge/bridgecheck/exitcall"
	"github.com/cmdbridge/cmdbridge/bridgecheck/goroutines"
	"github.com/cmdbridge/cmdbridge/bridgecheck/internal/scope"
	"github.com/cmdbridge/cmdbridge/bridgecheck/mainlogic"
	"github.com/cmdbridge/cmdbridge/bridgecheck/nativeglobals"
	"github.com/cmdbridge/cmdbridge/bridgecheck/procglobals"
	"github.com/cmdbridge/cmdbridge/bridgecheck/recovers"
)

// Doc is the analyzer's documentation, shown by `bridgecheck help`.
const Doc = `tell which legacy commands are safe to run in-process under the cmdbridge adapter

bridgecheck combines the rule families (exitcall, procglobals, goroutines, recovers,
nativeglobals), which report, and charges their findings to the commands the package
registers. Its result is a *Result; it reports nothing itself.`

// Analyzer is the combining pass: it requires every rule family and charges their
// findings to commands. Its result is a *Result. Drivers print the diagnostics of
// [Analyzers]; [Tiers] runs this one.
var Analyzer = &analysis.Analyzer{
	Name:       "bridgecheck",
	Doc:        Doc,
	URL:        "https://github.com/cmdbridge/cmdbridge/blob/main/docs/adapter-safety.md",
	Run:        run,
	Requires:   append([]*analysis.Analyzer{scope.Analyzer}, Analyzers...),
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// Analyzers are the passes a driver runs: the rule families, one analyzer each, in the
// order their rules are listed, then mainlogic (what a program's main does that the
// in-process lane skips; its findings are charged to no command).
var Analyzers = append(append([]*analysis.Analyzer(nil), families...), mainlogic.Analyzer)

// families are the rule families: what they find is charged to commands.
var families = []*analysis.Analyzer{
	exitcall.Analyzer, procglobals.Analyzer, goroutines.Analyzer, recovers.Analyzer, nativeglobals.Analyzer,
}

// Scope is the analyzer that decides which packages are checked; it owns the -legacy
// and -native flags.
var Scope = scope.Analyzer

// DefaultNative is the default -native pattern. -legacy has no default: legacy
// packages are found by what they register.
const DefaultNative = scope.DefaultNative

// Rule names, the Category of every diagnostic and the first word of its message.
const (
	RuleOsExit       = scope.RuleOsExit
	RuleLogFatal     = scope.RuleLogFatal
	RuleLogPanic     = scope.RuleLogPanic
	RuleShowAndExit  = scope.RuleShowAndExit
	RuleGlobalApp    = scope.RuleGlobalApp
	RuleGlobalFlags  = scope.RuleGlobalFlags
	RuleGlobalStream = scope.RuleGlobalStream
	RuleGoInAction   = scope.RuleGoInAction
	RuleRecover      = scope.RuleRecover
	RuleChdir        = scope.RuleChdir
	RuleSetenv       = scope.RuleSetenv
	RuleNativeGlobal = scope.RuleNativeGlobal
	RuleMainLogic    = scope.RuleMainLogic
)

// RuleNames lists every rule in a stable order (documentation and tests).
func RuleNames() []string { return scope.RuleNames() }

// Explain returns why rule r is unsafe in-process and what to write instead.
func Explain(r string) (why, instead string, ok bool) { return scope.Explain(r) }

// Finding is one reported construct.
type Finding = scope.Finding

// Result is what the rule families found in one package.
type Result struct {
	// Legacy and Native say which rule set applied (neither: the package was skipped).
	Legacy, Native bool
	// Findings are every finding of the package, in source order.
	Findings []Finding
	// Commands are the commands registered in the package, in source order, each with
	// the findings charged to it.
	Commands []Command
}

// Command is one command registration (a composite literal with a constant string Name,
// a New func() *cli.App and a Main func) and the findings charged to it: those in code
// reachable from its New and Main expressions through references within the package,
// plus the package's findings that no command reaches (init functions, shared helpers
// called in ways the references do not show).
type Command struct {
	Name     string
	Pos      token.Pos
	Findings []Finding
}

func run(pass *analysis.Pass) (any, error) {
	sc := pass.ResultOf[scope.Analyzer].(*scope.Scope)
	res := &Result{Legacy: sc.Legacy, Native: sc.Native}
	for _, a := range families {
		res.Findings = append(res.Findings, pass.ResultOf[a].([]scope.Finding)...)
	}
	scope.Sort(pass.Fset, res.Findings)
	if !sc.Legacy {
		return res, nil
	}
	var shared []Finding
	charged := make([][]Finding, len(sc.Registrations))
	for _, f := range res.Findings {
		owners := sc.Owners(f.Pos)
		for _, i := range owners {
			charged[i] = append(charged[i], f)
		}
		if len(owners) == 0 {
			shared = append(shared, f)
		}
	}
	for i, r := range sc.Registrations {
		fs := append(charged[i], shared...)
		scope.Sort(pass.Fset, fs)
		if fs == nil {
			fs = []Finding{}
		}
		res.Commands = append(res.Commands, Command{Name: r.Name, Pos: r.Pos, Findings: fs})
	}
	return res, nil
}
