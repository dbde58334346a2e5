package bridgecheck_test

import (
	"fmt"
	"go/token"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
	"github.com/cmdbridge/cmdbridge/bridgecheck/internal/scope"
)

// everything reports what every rule family found, so that the want comments of the
// whole corpus below testdata check the families together, as the driver runs them. Its
// result is the combining pass's.
var everything = &analysis.Analyzer{
	Name:       "everything",
	Doc:        "report the findings of every bridgecheck rule family",
	Requires:   []*analysis.Analyzer{bridgecheck.Analyzer},
	ResultType: reflect.TypeOf((*bridgecheck.Result)(nil)),
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[bridgecheck.Analyzer].(*bridgecheck.Result)
		for _, f := range res.Findings {
			scope.Report(pass, f)
		}
		return res, nil
	},
}

// resultsOf runs the combining pass on pkgs, with t failing on anything but the want
// comments (which TestAllFamilies checks), and returns each package's result.
func resultsOf(t *testing.T, pkgs ...string) map[string]*bridgecheck.Result {
	t.Helper()
	rec := &recorder{}
	out := results(analysistest.Run(rec, analysistest.TestData(), everything, pkgs...))
	for _, e := range rec.errs {
		if !strings.Contains(e, "diagnostic") {
			t.Error(e)
		}
	}
	return out
}

// results are the combining pass's results by package (test variants left out).
func results(rs []*analysistest.Result) map[string]*bridgecheck.Result {
	out := map[string]*bridgecheck.Result{}
	for _, r := range rs {
		if r.Action.Package.ID == r.Action.Package.PkgPath { // not a test variant
			out[r.Action.Package.PkgPath] = r.Action.Result.(*bridgecheck.Result)
		}
	}
	return out
}

// fixtures are the packages under testdata with want comments.
var fixtures = []string{
	"example.com/commands", "example.com/commands/bad", "example.com/commands/good",
	"example.com/commands/helper", "example.com/commands/tiered",
	"example.com/nativetools/tool", "example.com/other", "example.com/elsewhere", "example.com/selfapp",
}

// defaultRun is the one analysistest run of the combining pass over every fixture with
// the default flags: TestAllFamilies holds it to the want comments, and the tests of
// what the default detection finds read its results. (analysistest type-checks the
// standard library from source on every run: one run where there were three.)
var defaultRun = sync.OnceValues(func() (map[string]*bridgecheck.Result, []string) {
	rec := &recorder{}
	out := results(analysistest.Run(rec, analysistest.TestData(), everything, fixtures...))
	return out, rec.errs
})

// defaultResults are the results of pkgs in [defaultRun], with t failing on anything
// but the want comments (which TestAllFamilies checks), as [resultsOf]'s.
func defaultResults(t *testing.T, pkgs ...string) map[string]*bridgecheck.Result {
	t.Helper()
	all, errs := defaultRun()
	for _, e := range errs {
		if !strings.Contains(e, "diagnostic") {
			t.Error(e)
		}
	}
	out := map[string]*bridgecheck.Result{}
	for _, p := range pkgs {
		if r, ok := all[p]; ok {
			out[p] = r
		}
	}
	return out
}

// recorder is an analysistest.Testing that keeps the errors.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestAllFamilies(t *testing.T) {
	_, errs := defaultRun() // analysistest.Run's errors: a want comment unmet, a diagnostic unwanted, a load error
	for _, e := range errs {
		t.Error(e)
	}
}

// Findings are charged to the commands whose New and Main reach them; what no command
// reaches counts against every command of the package.
func TestCommandsAreChargedWhatTheyReach(t *testing.T) {
	results := defaultResults(t, "example.com/commands/tiered", "example.com/commands/good", "example.com/commands/bad", "example.com/elsewhere")
	require.Len(t, results, 4)
	got := map[string][]string{}
	for path, res := range results {
		assert.True(t, res.Legacy, path)
		assert.False(t, res.Native, path)
		for _, c := range res.Commands {
			assert.NotEqual(t, token.NoPos, c.Pos)
			rules := []string{}
			for _, f := range c.Findings {
				rules = append(rules, f.Rule)
			}
			got[c.Name] = rules
		}
	}
	assert.Equal(t, map[string][]string{
		"tiered:safe":   {"chdir"},
		"tiered:exit":   {"os-exit", "chdir"},
		"tiered:helped": {"setenv", "recover", "chdir"},
		"good:fine":     {},
		"bad:exit": {"os-exit", "log-fatal", "log-fatal", "log-panic", "log-fatal",
			"show-and-exit", "show-and-exit", "os-exit", "global-stream"},
		"bad:globals": {"global-app", "global-flags", "global-flags", "global-flags", "global-app", "global-stream",
			"global-stream", "global-stream", "global-stream"},
		"bad:go":         {"go-in-action", "go-in-action", "go-in-action", "go-in-action", "global-stream"},
		"bad:process":    {"global-stream", "recover", "chdir", "chdir", "setenv", "setenv", "setenv"},
		"elsewhere:quit": {"os-exit"},
	}, got)
}

// Packages are legacy by what they register or build, not by where they are.
func TestLegacyPackagesAreFoundByWhatTheyRegister(t *testing.T) {
	tests := []struct {
		pkg            string
		legacy, native bool
	}{
		{"example.com/commands/bad", true, false},     // registers commands
		{"example.com/elsewhere", true, false},        // registers, though not below commands/
		{"example.com/commands/helper", true, false},  // builds apps for registrations elsewhere
		{"example.com/commands", false, false},        // the registry: declares the type, registers nothing
		{"example.com/selfapp", false, false},         // runs its own app, registers nothing
		{"example.com/other", false, false},           // no urfave/cli at all
		{"example.com/nativetools/tool", false, true}, // native by -native
	}
	pkgs := []string{}
	for _, tt := range tests {
		pkgs = append(pkgs, tt.pkg)
	}
	results := defaultResults(t, pkgs...)
	for _, tt := range tests {
		res := results[tt.pkg]
		require.NotNil(t, res, tt.pkg)
		assert.Equal(t, tt.legacy, res.Legacy, tt.pkg)
		assert.Equal(t, tt.native, res.Native, tt.pkg)
	}
}

// -legacy replaces the detection: only the packages it names are legacy.
func TestLegacyFlagOverridesDetection(t *testing.T) {
	require.NoError(t, bridgecheck.Scope.Flags.Set("legacy", "example.com/other"))
	t.Cleanup(func() { _ = bridgecheck.Scope.Flags.Set("legacy", "") })
	results := resultsOf(t, "example.com/other", "example.com/elsewhere")
	assert.True(t, results["example.com/other"].Legacy, "named by -legacy")
	assert.False(t, results["example.com/elsewhere"].Legacy, "registers, but -legacy names other packages")
	rules := []string{}
	for _, f := range results["example.com/other"].Findings {
		rules = append(rules, f.Rule)
	}
	assert.Equal(t, []string{"log-fatal", "os-exit"}, rules)
}

func TestEveryRuleIsExplained(t *testing.T) {
	for _, r := range bridgecheck.RuleNames() {
		why, instead, ok := bridgecheck.Explain(r)
		assert.True(t, ok, r)
		assert.NotEmpty(t, why, r)
		assert.NotEmpty(t, instead, r)
	}
	_, _, ok := bridgecheck.Explain("nope")
	assert.False(t, ok)
}

// Every family is in Analyzers once, then mainlogic, and the combining pass requires
// each.
func TestAnalyzersAreTheFamilies(t *testing.T) {
	names := []string{}
	for _, a := range bridgecheck.Analyzers {
		names = append(names, a.Name)
		assert.Contains(t, bridgecheck.Analyzer.Requires, a)
	}
	assert.Equal(t, []string{"exitcall", "procglobals", "goroutines", "recovers", "nativeglobals", "mainlogic"}, names)
	require.NoError(t, analysis.Validate(append([]*analysis.Analyzer{bridgecheck.Analyzer}, bridgecheck.Analyzers...)))
}
