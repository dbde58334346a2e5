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

type testData struct {
	Name  string   `json:"name"`
	Count int      `json:"count"`
	Tags  []string `json:"tags"`
	Empty []string `json:"empty"`
	Null  *string  `json:"null"`
	Obj   struct{} `json:"obj"`
	Ratio float64  `json:"ratio"`
	HTML  string   `json:"html"`
}

// newTestApp declares a command exercising every kind of check; action is its action.
func newTestApp(action func(*convention.Call) error) *cli.App {
	return convention.App(convention.Spec{
		Name:     "test:cmd",
		Usage:    "a command for tests",
		ReadOnly: true,
		Paths:    map[string]string{"path": "read"},
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "path", Required: true},
			convention.Int("level", "level", 0, convention.Bound(1), convention.Bound(3)),
			convention.Enum("mode", "mode", "fast", "fast", "slow"),
			convention.Date("due", "due date"),
			convention.Duration("ttl", "ttl", ""),
			convention.WU("id", "work unit", false),
			&cli.BoolFlag{Name: "a"},
			&cli.BoolFlag{Name: "b"},
			&cli.StringSliceFlag{Name: "tag"},
		},
		Args:   []convention.Arg{{Name: "ref", Required: true}},
		Rules:  []convention.Rule{convention.Exclusive("a", "b")},
		Action: action,
	})
}

type outcome struct {
	stdout, stderr string
	code           int
	ran            bool
}

func run(t *testing.T, env map[string]string, action func(*convention.Call) error, args ...string) outcome {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	var o outcome
	var stdout, stderr bytes.Buffer
	app := newTestApp(func(c *convention.Call) error {
		o.ran = true
		return action(c)
	})
	app.Writer, app.ErrWriter = &stdout, &stderr
	saved := cli.OsExiter
	t.Cleanup(func() { cli.OsExiter = saved })
	cli.OsExiter = func(code int) { o.code = code }
	convention.Run(context.Background(), app, append([]string{"test:cmd"}, args...))
	o.stdout, o.stderr = stdout.String(), stderr.String()
	return o
}

func ok(c *convention.Call) error { return c.Result("done", testData{Name: "x"}) }

func TestUsageErrorsInSpecOrder(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		args []string
		msg  string
	}{
		{"environment first", map[string]string{"DELIVERY_NOW": "yesterday"}, []string{"--bogus"},
			"invalid environment variable DELIVERY_NOW: expected an RFC 3339 timestamp"},
		{"unknown flag", nil, []string{"--bogus", "--level", "9"}, "unknown flag --bogus"},
		{"left to right", nil, []string{"--level", "9", "--bogus"}, `invalid value "9" for --level: expected integer from 1 to 3`},
		{"not an integer", nil, []string{"--level", "0x2"}, `invalid value "0x2" for --level: expected integer`},
		{"enum", nil, []string{"--mode=turbo"}, `invalid value "turbo" for --mode: expected one of fast, slow`},
		{"date", nil, []string{"--due", "2026-02-30"}, `invalid value "2026-02-30" for --due: expected YYYY-MM-DD date`},
		{"duration", nil, []string{"--ttl", "7y"}, `invalid value "7y" for --ttl: expected duration like 30m, 24h or 7d`},
		{"wu", nil, []string{"--id", "wu-1"}, `invalid value "wu-1" for --id: expected WU-<number>`},
		{"bool", nil, []string{"--a=yes"}, `invalid value "yes" for --a: expected true or false`},
		{"missing value", nil, []string{"--path"}, "flag --path requires a value"},
		{"extra argument", nil, []string{"--path", "p", "r", "s"}, `unexpected argument "s"`},
		{"flag after positional", nil, []string{"--path", "p", "r", "--a"}, `unexpected argument "--a"`},
		{"required flag before argument", nil, []string{}, "missing required flag --path"},
		{"required argument", nil, []string{"--path", "p"}, "missing required argument REF"},
		{"combination last", nil, []string{"--path", "p", "--a", "--b", "r"}, "flags --a and --b cannot be used together"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := run(t, tc.env, ok, tc.args...)
			assert.Equal(t, 2, o.code)
			assert.False(t, o.ran, "nothing runs on a usage error")
			assert.Equal(t, "[test:cmd] usage: "+tc.msg+"\n", o.stderr)
			assert.Empty(t, o.stdout)
		})
	}
}

func TestAcceptedArgv(t *testing.T) {
	o := run(t, nil, func(c *convention.Call) error {
		assert.Equal(t, "p", c.String("path"))
		assert.Equal(t, 2, c.Int("level"))
		assert.Equal(t, "slow", c.Value("mode"))
		assert.Equal(t, []string{"a,b", "c"}, c.Strings("tag"), "never split on commas")
		assert.Equal(t, "r", c.Arg("ref"))
		assert.False(t, c.Bool("b"))
		return ok(c)
	}, "--path=p", "--level", "2", "--mode", "slow", "--tag", "a,b", "--tag=c", "--a=false", "--b=false", "r")
	require.True(t, o.ran)
	assert.Equal(t, 0, o.code)
	assert.Empty(t, o.stderr)
}

func TestUsageErrorEnvelopeWithJSON(t *testing.T) {
	o := run(t, nil, ok, "--json", "--level", "5")
	assert.Equal(t, 2, o.code)
	assert.JSONEq(t, `{"ok":false,"command":"test:cmd","data":null,
		"error":{"code":"USAGE","message":"invalid value \"5\" for --level: expected integer from 1 to 3","details":null},
		"warnings":[]}`, o.stdout)
}

func TestHelpRunsNothing(t *testing.T) {
	o := run(t, nil, ok, "--help", "--bogus")
	assert.False(t, o.ran)
	assert.Equal(t, 0, o.code)
	assert.Contains(t, o.stdout, "--level")
	assert.Empty(t, o.stderr)
}

func TestTextResultFollowsR1R2(t *testing.T) {
	o := run(t, nil, func(c *convention.Call) error {
		c.Warn("careful")
		return c.Result("Did it", testData{Name: "x", Count: 2, Tags: []string{"a", "b"}, Ratio: 0.5, HTML: "<&>"})
	}, "--path", "p", "r")
	assert.Equal(t, "Did it\n  name: x\n  count: 2\n  tags: a, b\n  ratio: 0.5\n  html: <&>\n", o.stdout)
	assert.Equal(t, "[test:cmd] warning: careful\n", o.stderr)
	assert.Equal(t, 0, o.code)
}

func TestJSONEnvelope(t *testing.T) {
	o := run(t, nil, func(c *convention.Call) error {
		c.Warn("careful")
		return c.Result("Did it", testData{Name: "<x>"})
	}, "--json", "--path", "p", "r")
	assert.Equal(t, `{
  "ok": true,
  "command": "test:cmd",
  "data": {
    "name": "<x>",
    "count": 0,
    "tags": null,
    "empty": null,
    "null": null,
    "obj": {},
    "ratio": 0,
    "html": ""
  },
  "error": null,
  "warnings": [
    "careful"
  ]
}
`, o.stdout)
}

func TestFailures(t *testing.T) {
	cases := []struct {
		name   string
		action func(*convention.Call) error
		stderr string
		code   string
	}{
		{"not found", func(c *convention.Call) error { return c.Failf(tool.CodeNotFound, "no %s", "x") },
			"[test:cmd] error: no x\n", tool.CodeNotFound},
		{"validation lists violations", func(c *convention.Call) error {
			return c.Fail(tool.CodeValidation, "2 problems", map[string]any{"errors": []string{"a", "b"}})
		}, "[test:cmd] error: a\n[test:cmd] error: b\n", tool.CodeValidation},
		{"panic is INTERNAL", func(c *convention.Call) error { panic("boom") },
			"[test:cmd] error: panic: boom\n", tool.CodeInternal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := run(t, nil, tc.action, "--json", "--path", "p", "r")
			assert.Equal(t, 1, o.code)
			assert.Equal(t, tc.stderr, o.stderr)
			assert.Contains(t, o.stdout, `"code": "`+tc.code+`"`)
			assert.Contains(t, o.stdout, `"ok": false`)
		})
	}
}

func TestMetadataDeclaresTheTool(t *testing.T) {
	app := newTestApp(ok)
	assert.Equal(t, true, app.Metadata[legacy.MetaReadOnly])
	assert.Equal(t, false, app.Metadata[legacy.MetaDestructive])
	assert.Equal(t, map[string]string{"path": "read"}, app.Metadata[legacy.MetaPaths])
	assert.Equal(t, []map[string]any{{"name": "ref", "required": true, "passthrough": false}}, app.Metadata[convention.MetaArgs])
	var enum legacy.Choices
	for _, f := range app.Flags {
		if g, ok := f.(*cli.GenericFlag); ok && g.Name == "mode" {
			enum, _ = g.Value.(legacy.Choices)
		}
	}
	require.NotNil(t, enum)
	assert.Equal(t, []string{"fast", "slow"}, enum.Choices())
	assert.True(t, app.DisableSliceFlagSeparator)
}

func TestTable(t *testing.T) {
	assert.Equal(t, "No lanes found.\n", convention.Table("lanes", []string{"name"}, nil))
	assert.Equal(t, "NAME  WIP\nCore  1\nDocs  22\n",
		convention.Table("lanes", []string{"name", "wip"}, [][]string{{"Core", "1"}, {"Docs", "22"}}))
}

func TestCommitLines(t *testing.T) {
	assert.Equal(t, "", convention.CommitLines(nil))
	assert.Equal(t, "  commit: 0123456 chore: x\n  pushed: origin main\n",
		convention.CommitLines(&convention.Commit{SHA: "0123456789", Subject: "chore: x", Pushed: true, Branch: "main"}))
}

// newChoicesApp declares a positional choice list and a repeatable enum flag.
func newChoicesApp(action func(*convention.Call) error) *cli.App {
	return convention.App(convention.Spec{
		Name:   "test:choices",
		Flags:  []cli.Flag{convention.Enums("status", "filter", "ready", "done"), &cli.StringFlag{Name: "lane", Required: true}},
		Args:   []convention.Arg{{Name: "kind", Choices: []string{"all", "dora"}}},
		Action: action,
	})
}

func runChoices(t *testing.T, args ...string) (outcome, []string, string) {
	t.Helper()
	var o outcome
	var statuses []string
	var kind string
	var stdout, stderr bytes.Buffer
	app := newChoicesApp(func(c *convention.Call) error {
		o.ran = true
		statuses, kind = c.Strings("status"), c.Arg("kind")
		return c.Result("done", nil)
	})
	app.Writer, app.ErrWriter = &stdout, &stderr
	saved := cli.OsExiter
	t.Cleanup(func() { cli.OsExiter = saved })
	cli.OsExiter = func(code int) { o.code = code }
	convention.Run(context.Background(), app, append([]string{"test:choices"}, args...))
	o.stdout, o.stderr = stdout.String(), stderr.String()
	return o, statuses, kind
}

func TestChoiceUsageErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		msg  string
	}{
		{"bad positional", []string{"--lane", "x", "flow"}, `invalid value "flow" for KIND: expected one of all, dora`},
		{"bad positional before missing flag", []string{"flow"}, `invalid value "flow" for KIND: expected one of all, dora`},
		{"bad positional before extra argument", []string{"--lane", "x", "flow", "more"}, `invalid value "flow" for KIND: expected one of all, dora`},
		{"extra argument after good positional", []string{"--lane", "x", "all", "more"}, `unexpected argument "more"`},
		{"bad repeated value", []string{"--status", "ready", "--status=waiting", "--lane", "x"}, `invalid value "waiting" for --status: expected one of ready, done`},
		{"no comma splitting", []string{"--status", "ready,done", "--lane", "x"}, `invalid value "ready,done" for --status: expected one of ready, done`},
		{"bad value before missing flag", []string{"--status", "x"}, `invalid value "x" for --status: expected one of ready, done`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o, _, _ := runChoices(t, tc.args...)
			assert.Equal(t, 2, o.code)
			assert.False(t, o.ran, "nothing runs on a usage error")
			assert.Equal(t, "[test:choices] usage: "+tc.msg+"\n", o.stderr)
			assert.Empty(t, o.stdout)
		})
	}
}

func TestChoiceUsageErrorEnvelope(t *testing.T) {
	o, _, _ := runChoices(t, "--json", "--lane", "x", "flow")
	assert.Equal(t, 2, o.code)
	assert.JSONEq(t, `{"ok":false,"command":"test:choices","data":null,
		"error":{"code":"USAGE","message":"invalid value \"flow\" for KIND: expected one of all, dora","details":null},
		"warnings":[]}`, o.stdout)
}

func TestChoicesAccepted(t *testing.T) {
	o, statuses, kind := runChoices(t, "--status", "done", "--status=ready", "--status", "done", "--lane", "x", "dora")
	require.True(t, o.ran)
	assert.Equal(t, 0, o.code)
	assert.Empty(t, o.stderr)
	assert.Equal(t, []string{"done", "ready", "done"}, statuses, "argv order, each value once")
	assert.Equal(t, "dora", kind)

	o, statuses, kind = runChoices(t, "--lane", "x")
	require.True(t, o.ran)
	assert.Empty(t, statuses)
	assert.Equal(t, "", kind, "an absent optional positional is not checked")
}

func TestChoicesInMetadata(t *testing.T) {
	app := newChoicesApp(ok)
	assert.Equal(t, []map[string]any{{"name": "kind", "required": false, "passthrough": false,
		"choices": []string{"all", "dora"}}}, app.Metadata[convention.MetaArgs])
	f, isSlice := app.Flags[0].(*cli.StringSliceFlag)
	require.True(t, isSlice, "a repeatable enum stays a slice flag: its tool input is an array")
	assert.Equal(t, "filter (repeatable; ready|done)", f.Usage)
}
