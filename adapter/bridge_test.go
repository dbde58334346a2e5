package adapter

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter/internal/hazard"
	"github.com/cmdbridge/cmdbridge/internal/golden"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func TestSchemaCoversEveryFlagType(t *testing.T) {
	s, err := Schema(hazard.Lookup("flags"))
	require.NoError(t, err)
	b, err := json.MarshalIndent(s, "", "  ")
	require.NoError(t, err)
	golden.Check(t, "schema_flags.json", append(b, '\n'))

	// The properties the golden must show, checked independently of it.
	props := s.Properties
	for prop, typ := range map[string]string{
		"title": "string", "path": "string", "force": "boolean", "no_strict": "boolean",
		"count": "integer", "big": "integer", "small": "integer", "huge": "integer",
		"ratio": "number", "wait": "string", "since": "string", "level": "string", "pair": "string",
		"code_paths": "array", "ints": "array", "int64s": "array", "floats": "array",
		"uints": "array", "uint64s": "array", "name": "string", "extra": "string", "command": "array",
	} {
		require.Contains(t, props, prop)
		assert.Equal(t, typ, props[prop].Type, prop)
	}
	for _, absent := range []string{"json", "help", "version", "secret"} {
		assert.NotContains(t, props, absent)
	}
	assert.Equal(t, []any{"low", "mid", "high"}, props["level"].Enum)
	assert.Equal(t, []string{"title", "name"}, s.Required)
	assert.Equal(t, "integer", props["ints"].Items.Type)
	assert.Equal(t, "number", props["floats"].Items.Type)
	assert.JSONEq(t, `3`, string(props["count"].Default))
	assert.JSONEq(t, `"30s"`, string(props["wait"].Default))
	assert.JSONEq(t, `"mid"`, string(props["level"].Default))
	assert.Equal(t, "a string", props["title"].Description)
	assert.Contains(t, string(b), `"additionalProperties": false`)
	assert.Contains(t, string(b), `"$schema": "https://json-schema.org/draft/2020-12/schema"`)
}

func TestSchemaPositionalGrammar(t *testing.T) {
	cases := []struct {
		usage    string
		props    []string
		required []string
		err      string
	}{
		{usage: "", err: "positionals undeclared: args is passed after --"},
		{usage: " ", props: nil}, // a blank usage declares none
		{usage: "<ID>", props: []string{"id"}, required: []string{"id"}},
		{usage: "[<ID>]", props: []string{"id"}},
		{usage: "[<ARGS>...]", props: []string{"args"}},
		{usage: "<FILE-NAME>...", props: []string{"file_name"}, required: []string{"file_name"}},
		{usage: "<ID> -- <COMMAND>...", props: []string{"id", "command"}, required: []string{"id", "command"}},
		{usage: "ID", props: []string{"id"}, required: []string{"id"}},
		{usage: "[REF]", props: []string{"ref"}},
		{usage: "[-- COMMAND...]", props: []string{"command"}},
		{usage: "<ID> [-- <CMD>...]", props: []string{"id", "cmd"}, required: []string{"id"}},
		{usage: "<ID", err: "is not <NAME>"},
		{usage: "[<ID>", err: "is not <NAME>"},
		{usage: "[<A>] <B>", err: "follows an optional"},
		{usage: "<A>... <B>", err: "follows a list"},
		{usage: "<A> -- <B>", err: "exactly one <NAME>..."},
		{usage: "<A> --", err: "exactly one <NAME>..."},
	}
	for _, tc := range cases {
		t.Run(tc.usage, func(t *testing.T) {
			c := legacy.Command{Name: "p", New: func() *cli.App { return &cli.App{ArgsUsage: tc.usage} }, Main: func(context.Context) {}}
			s, err := Schema(c)
			require.NoError(t, err, "a usage outside the grammar falls back, it does not fail")
			if tc.err != "" { // the fallback: one optional args list, and a warning saying why
				assert.Equal(t, []string{"args"}, s.PropertyOrder)
				assert.Empty(t, s.Required)
				w := Warnings(c)
				require.Len(t, w, 1)
				assert.Contains(t, w[0], tc.err)
				return
			}
			assert.Empty(t, Warnings(c))
			assert.Equal(t, tc.props, s.PropertyOrder)
			assert.Equal(t, tc.required, s.Required)
		})
	}
}

func TestArgvGolden(t *testing.T) {
	c := hazard.Lookup("flags")
	cases := []struct{ name, input string }{
		{"required only", `{"title":"t","name":"n"}`},
		{"booleans true and false", `{"title":"t","name":"n","force":true,"no_strict":false}`},
		{"repeated slices keep commas", `{"title":"t","name":"n","code_paths":["a,b","c"],"ints":[1,-2],"floats":[0.5,1e3]}`},
		{"leading dashes in flag values", `{"title":"--json","name":"n","pair":"-x"}`},
		{"leading dash in the first positional", `{"title":"t","name":"-n","extra":"flag wins"}`},
		{"positionals and passthrough", `{"title":"t","name":"n","command":["make","--keep-going","a,b"]}`},
		{"every scalar type", `{"title":"t","path":"p","count":7,"big":-9000000000,"small":1,"huge":18446744073709551615,"ratio":2.5,"wait":"5m","since":"2024-01-02","level":"high","name":"n"}`},
		{"empty passthrough", `{"title":"t","name":"n","command":[]}`},
		{"null input", `null`},
	}
	var out strings.Builder
	for _, tc := range cases {
		argv, err := Argv(c, json.RawMessage(tc.input))
		require.NoError(t, err, tc.name)
		b, err := json.Marshal(argv)
		require.NoError(t, err)
		out.WriteString("# " + tc.name + "\n" + tc.input + "\n" + string(b) + "\n\n")
	}
	golden.Check(t, "argv_flags.golden", []byte(out.String()))
}

func TestArgvRejectsBadInput(t *testing.T) {
	c := hazard.Lookup("flags")
	cases := map[string]string{
		`{"nope":1}`:         `unknown input property "nope"`,
		`{"json":true}`:      `unknown input property "json"`,
		`{"secret":"x"}`:     `unknown input property "secret"`,
		`{"title":3}`:        `property "title": expected a string, got a number (3)`,
		`{"force":"yes"}`:    `property "force": expected a boolean, got a string`,
		`{"count":1.5}`:      `property "count": expected an integer, got a number (1.5)`,
		`{"small":-1}`:       `property "small": expected an integer, got a number (-1)`,
		`{"code_paths":"a"}`: `property "code_paths": expected an array of strings, got a string`,
		`{"ints":[1,"2"]}`:   `property "ints": element 1: expected an integer, got a string`,
		`{"title":null}`:     `property "title": expected a string, got null`,
		`[1]`:                `input must be a JSON object`,
	}
	for input, want := range cases {
		_, err := Argv(c, json.RawMessage(input))
		assert.ErrorContains(t, err, want, input)
	}
}

// The argv the bridge builds is the argv the command parses: round-trip through the real
// command on both lanes.
func TestCallRoundTripsEveryFlagType(t *testing.T) {
	c := hazard.Lookup("flags")
	input := `{"title":"--t","path":"p","force":true,"count":7,"big":-9000000000,"small":1,"huge":18446744073709551615,
		"ratio":2.5,"wait":"5m","since":"2024-01-02","level":"high","pair":"-x","code_paths":["a,b","c"],
		"ints":[1,-2],"int64s":[3],"floats":[0.25],"uints":[4],"uint64s":[5],"name":"-n","extra":"e","command":["make","a,b"]}`
	want := `{"args":["-n","--","make","a,b"],"big":-9000000000,"code_paths":["a,b","c"],"count":7,"extra":"e",
		"float64s":null,"floats":[0.25],"force":true,"huge":18446744073709551615,"int64s":[3],"ints":[1,-2],
		"level":"high","no_strict":false,"pair":"-x","path":"p","ratio":2.5,"since":"2024-01-02","small":1,
		"title":"--t","uint64s":[5],"uints":[4],"wait":"5m0s"}`
	var wantMap map[string]any
	require.NoError(t, json.Unmarshal([]byte(want), &wantMap))
	delete(wantMap, "float64s")
	wantJSON, err := json.Marshal(wantMap)
	require.NoError(t, err)
	for _, lane := range []string{LaneAdapter, LaneSubprocess} {
		out := Call(context.Background(), c, json.RawMessage(input), lane, Config{Binary: binary})
		require.True(t, out.Success, "%s: %+v", lane, out.Error)
		data, err := tool.CanonicalJSON(out.Data)
		require.NoError(t, err)
		assert.JSONEq(t, string(wantJSON), string(data), lane)
		assert.Equal(t, lane, out.Metadata["lane"])
	}
}

func TestToOutput(t *testing.T) {
	env := func(ok bool, rest string) []byte {
		if ok {
			return []byte(`{"ok": true, "command": "x", "data": {"b": 1,  "a": [2]}, "error": null, "warnings": ["w"]` + rest + "}\n")
		}
		return []byte(`{"ok": false, "command": "x", "data": null, "error": {"code": "NOT_FOUND", "message": "gone", "details": {"id": "WU-1"}}, "warnings": []` + rest + "}\n")
	}
	cases := []struct {
		name     string
		res      Result
		success  bool
		code     string
		message  string
		data     string
		warnings []string
	}{
		{name: "ok", res: Result{Stdout: env(true, "")}, success: true, data: `{"b": 1,  "a": [2]}`, warnings: []string{"w"}},
		{name: "failure passes the code through", res: Result{ExitCode: 1, Stdout: env(false, "")}, code: "NOT_FOUND", message: "gone"},
		{name: "ok but exit 1", res: Result{ExitCode: 1, Stdout: env(true, "")}, code: tool.CodeCommandFailed, message: "x exited with code 1 but its envelope says ok=true"},
		{name: "failure but exit 0", res: Result{Stdout: env(false, "")}, code: tool.CodeCommandFailed, message: "x exited with code 0 but its envelope says ok=false"},
		{name: "not an envelope", res: Result{ExitCode: 2, Stdout: []byte("hello\n"), Stderr: []byte("\n[x] usage: unknown flag --y\nmore\n")}, code: tool.CodeCommandFailed, message: "[x] usage: unknown flag --y"},
		{name: "two documents", res: Result{Stdout: append(env(true, ""), env(true, "")...)}, code: tool.CodeCommandFailed, message: "x exited with code 0 without a JSON envelope on stdout"},
		{name: "timeout", res: Result{Status: TimedOut, ExitCode: 124, Stdout: env(true, "")}, code: tool.CodeTimeout, message: "x did not finish before the call's deadline"},
		{name: "cancelled", res: Result{Status: Cancelled, ExitCode: 130}, code: tool.CodeCancelled, message: "x was cancelled by the caller"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.res.Command, tc.res.Lane, tc.res.Duration = "x", LaneAdapter, 1500*time.Microsecond
			out := ToOutput(tc.res)
			assert.Equal(t, tc.success, out.Success)
			if tc.success {
				assert.Nil(t, out.Error)
				assert.Equal(t, tc.data, string(out.Data.(json.RawMessage)), "data must be byte-exact")
			} else {
				require.NotNil(t, out.Error)
				assert.Equal(t, tc.code, out.Error.Code)
				assert.Equal(t, tc.message, out.Error.Message)
			}
			assert.Equal(t, LaneAdapter, out.Metadata["lane"])
			assert.Equal(t, tc.res.ExitCode, out.Metadata["exit_code"])
			assert.Equal(t, 1.5, out.Metadata["duration_ms"])
			if tc.warnings != nil {
				assert.Equal(t, tc.warnings, out.Metadata["warnings"])
			}
		})
	}
	out := ToOutput(Result{Command: "x", ExitCode: 1, Stdout: env(false, "")})
	assert.Equal(t, json.RawMessage(`{"id": "WU-1"}`), out.Error.Details)
}

func TestCallMapsBothLanesTheSameWay(t *testing.T) {
	c := hazard.Lookup("echo")
	for _, input := range []string{`{"args":["a","b"]}`, `{"fail":true}`, `{"lie":true}`, `{"warn":"careful"}`} {
		a := Call(context.Background(), c, json.RawMessage(input), LaneAdapter, Config{Binary: binary})
		s := Call(context.Background(), c, json.RawMessage(input), LaneSubprocess, Config{Binary: binary})
		assert.Equal(t, s.Success, a.Success, input)
		assert.Equal(t, s.Error, a.Error, input)
		ad, _ := tool.CanonicalJSON(a.Data)
		sd, _ := tool.CanonicalJSON(s.Data)
		assert.Equal(t, string(sd), string(ad), input)
		assert.Equal(t, s.Metadata["stderr"], a.Metadata["stderr"], input)
		assert.Equal(t, s.Metadata["warnings"], a.Metadata["warnings"], input)
	}
	out := Call(context.Background(), c, json.RawMessage(`{"nope":1}`), LaneAdapter, Config{})
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
	assert.Equal(t, `echo: unknown input property "nope"`, out.Error.Message)
	out = Call(context.Background(), c, nil, "elsewhere", Config{})
	assert.Equal(t, tool.CodeExecutionFailed, out.Error.Code)
}

func TestSpecReadsMetadata(t *testing.T) {
	echo, err := Spec(hazard.Lookup("echo"))
	require.NoError(t, err)
	assert.Equal(t, "echo", echo.Name)
	assert.Equal(t, "hazard", echo.Domain)
	assert.Equal(t, "print the arguments", echo.Description)
	assert.Equal(t, tool.Annotations{ReadOnlyHint: true, IdempotentHint: true}, echo.Annotations)
	assert.True(t, echo.ParallelSafe)
	assert.False(t, echo.Network)
	assert.Equal(t, tool.DefaultTimeout, echo.DefaultTimeout)
	assert.Equal(t, tool.MaxTimeout, echo.MaxTimeout)

	flags, err := Spec(hazard.Lookup("flags"))
	require.NoError(t, err)
	assert.Equal(t, tool.Annotations{DestructiveHint: true, OpenWorldHint: true}, flags.Annotations)
	assert.False(t, flags.ParallelSafe)
	assert.True(t, flags.Network)
	assert.Equal(t, []tool.PathInput{{Property: "name", Access: tool.Read}, {Property: "path", Access: tool.Write}}, flags.Paths)

	bad := legacy.Command{Name: "bad", Main: func(context.Context) {}, New: func() *cli.App {
		return &cli.App{Metadata: map[string]any{legacy.MetaPaths: map[string]string{"ghost": "read"}}}
	}}
	_, err = Spec(bad)
	assert.ErrorContains(t, err, `path input "ghost" is not an input property`)
	bad.New = func() *cli.App { return &cli.App{Metadata: map[string]any{legacy.MetaReadOnly: "yes"}} }
	_, err = Spec(bad)
	assert.ErrorContains(t, err, "must be a bool")
}
