package convention_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// newRulesApp declares every rule kind: Together is checked on argv, Enforces only
// published (the action checks them itself).
func newRulesApp(action func(*convention.Call) error) *cli.App {
	return convention.App(convention.Spec{
		Name:  "test:rules",
		Usage: "rules",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "phase-id"},
			&cli.StringFlag{Name: "phase-status"},
			convention.Enum("action", "action", "", "resume", "reset"),
			&cli.BoolFlag{Name: "force"},
		},
		Args:     []convention.Arg{{Name: "ref", Usage: "what to look at"}, {Name: "cmd", Passthrough: true}},
		Rules:    []convention.Rule{convention.Together("phase-id", "phase-status")},
		Enforces: []convention.Rule{convention.Required("ref"), convention.RequiresWhen("action", []string{"reset"}, "force")},
		Action:   action,
	})
}

func runRules(t *testing.T, args ...string) (code int, stderr string, ran bool) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := newRulesApp(func(c *convention.Call) error {
		ran = true
		return c.Result("done", struct{}{})
	})
	app.Writer, app.ErrWriter = &out, &errOut
	saved := cli.OsExiter
	t.Cleanup(func() { cli.OsExiter = saved })
	cli.OsExiter = func(c int) { code = c }
	convention.Run(context.Background(), app, append([]string{"test:rules"}, args...))
	return code, errOut.String(), ran
}

func TestTogetherIsCheckedBothWays(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--phase-id", "1"}, "flag --phase-id requires --phase-status"},
		{[]string{"--phase-status", "done"}, "flag --phase-status requires --phase-id"},
	} {
		code, stderr, ran := runRules(t, tc.args...)
		assert.Equal(t, 2, code, tc.args)
		assert.False(t, ran)
		assert.Equal(t, "[test:rules] usage: "+tc.msg+"\n", stderr)
	}
	code, _, ran := runRules(t, "--phase-id", "1", "--phase-status", "done")
	assert.Equal(t, 0, code)
	assert.True(t, ran)
}

// TestEnforcesAreNotArgvChecks: the action owns these rules; argv checking lets the
// call through.
func TestEnforcesAreNotArgvChecks(t *testing.T) {
	code, stderr, ran := runRules(t, "--action", "reset")
	assert.Equal(t, 0, code, stderr)
	assert.True(t, ran, "no positional and no --force: the action decides")
}

func TestRulesArePublished(t *testing.T) {
	app := newRulesApp(ok)
	assert.Equal(t, []tool.Constraint{
		{Kind: tool.Together, Properties: []string{"phase-id", "phase-status"}},
		{Kind: tool.Required, Properties: []string{"ref"}},
		{Kind: tool.Requires, Properties: []string{"action", "force"}, Values: []any{"reset"}},
	}, app.Metadata[legacy.MetaConstraints])
	assert.Equal(t, map[string]string{"ref": "what to look at"}, app.Metadata[legacy.MetaArgDescriptions])
	plain := convention.App(convention.Spec{Name: "test:plain", Usage: "plain", Action: ok})
	require.NotContains(t, plain.Metadata, legacy.MetaConstraints, "no rules, no key")
	require.NotContains(t, plain.Metadata, legacy.MetaArgDescriptions)
	require.NotContains(t, plain.Metadata, legacy.MetaArgLeadingDash)
	dash := convention.App(convention.Spec{Name: "test:dash", Usage: "dash", Action: ok,
		Args: []convention.Arg{{Name: "ref"}, {Name: "delta", LeadingDash: true}}})
	assert.Equal(t, []string{"delta"}, dash.Metadata[legacy.MetaArgLeadingDash], "an Arg's LeadingDash")
}
