package bridgecheck_test

import (
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/cmdbridge/cmdbridge/codegen/bridgecheck"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), bridgecheck.Analyzer,
		"example.com/commands", "example.com/commands/bad", "example.com/commands/good",
		"example.com/commands/helper", "example.com/commands/tiered",
		"example.com/nativetools/tool", "example.com/other")
}

// Findings are charged to the commands whose New and Main reach them; what no command
// reaches counts against every command of the package.
func TestCommandsAreChargedWhatTheyReach(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), bridgecheck.Analyzer,
		"example.com/commands/tiered", "example.com/commands/good", "example.com/commands/bad")
	got := map[string][]string{}
	for _, r := range results {
		res, ok := r.Action.Result.(*bridgecheck.Result)
		require.True(t, ok, "result of %s", r.Action)
		if !r.Action.IsRoot {
			continue
		}
		assert.True(t, res.Legacy, r.Action.Package.PkgPath)
		assert.False(t, res.Native, r.Action.Package.PkgPath)
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
		"bad:go":      {"go-in-action", "go-in-action", "go-in-action", "go-in-action", "global-stream"},
		"bad:process": {"global-stream", "recover", "chdir", "chdir", "setenv", "setenv", "setenv"},
	}, got)
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
