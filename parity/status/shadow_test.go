package status_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/parity/status"
)

// TestShadowVerdicts: the promotion rule recommends routing native only a shadow-routed
// tool with enough matching runs and few enough mismatches, in a log that verifies; the
// text report lists the runs, the last mismatch's diffs and the recommendation.
func TestShadowVerdicts(t *testing.T) {
	tools := []status.Tool{
		{Name: "a:ready", Domain: "a", Route: "shadow", Command: true, Native: true},
		{Name: "a:young", Domain: "a", Route: "shadow", Command: true, Native: true},
		{Name: "a:differs", Domain: "a", Route: "shadow", Command: true, Native: true},
		{Name: "a:native", Domain: "a", Route: "native", Command: true, Native: true},
		{Name: "a:quiet", Domain: "a", Route: "shadow", Command: true, Native: true},
	}
	tallies := map[string]*evidence.ShadowTally{
		"a:ready":   {Runs: 3, Matches: 3, SinceMismatch: 3},
		"a:young":   {Runs: 2, Matches: 2, SinceMismatch: 2},
		"a:differs": {Runs: 4, Matches: 3, Mismatches: 1, LastMismatch: &evidence.ShadowMismatch{Receipt: "r9", Time: "2026-03-01T10:00:00Z", Diffs: []string{"adapter/native changed x: adapter 1, native 2"}}},
		"a:native":  {Runs: 5, Matches: 5, SinceMismatch: 5},
	}
	build := func(verified bool) status.Report {
		rep, err := status.Build(status.Config{Dir: t.TempDir(), Tools: tools,
			Shadows: &status.Shadows{Workspace: "/ws", Tallies: tallies, Verified: verified, Rule: status.Promotion{Matches: 3}}})
		require.NoError(t, err)
		return rep
	}
	rep := build(true)
	verdict := map[string]string{}
	for _, tl := range rep.Tools {
		if tl.Shadow != nil {
			verdict[tl.Name] = tl.Shadow.Verdict
		}
	}
	assert.Equal(t, map[string]string{"a:ready": status.VerdictPromote, "a:young": status.VerdictKeep,
		"a:differs": status.VerdictMismatch, "a:native": status.VerdictKeep}, verdict, "a:quiet has no runs")
	assert.Equal(t, []string{"a:ready"}, rep.Shadow.Promote)
	var text strings.Builder
	require.NoError(t, status.WriteText(&text, rep))
	for _, want := range []string{"rule: promote after 3 matching runs with at most 0 mismatches",
		"last mismatch 2026-03-01T10:00:00Z (receipt r9)", "adapter/native changed x: adapter 1, native 2",
		"promote to native: a:ready", "set routes: {a:ready: native}"} {
		assert.Contains(t, text.String(), want)
	}

	var page strings.Builder
	require.NoError(t, status.WriteHTML(&page, rep))
	for _, want := range []string{`id="shadow"`, "<code>a:ready</code>", "<strong>promote</strong>",
		"last mismatch 2026-03-01T10:00:00Z", "adapter/native changed x: adapter 1, native 2"} {
		assert.Contains(t, page.String(), want)
	}

	rep = build(false)
	assert.Empty(t, rep.Shadow.Promote, "nothing is decided on a log that does not verify")
	text.Reset()
	require.NoError(t, status.WriteText(&text, rep))
	assert.Contains(t, text.String(), "DOES NOT VERIFY")
}
