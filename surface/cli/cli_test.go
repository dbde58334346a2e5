package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == fxProgram {
		// The fixture's program, run by the subprocess lane.
		os.Exit(runFxProgram(context.Background(), os.Args[1:]))
	}
	if os.Getenv(asCmdbridge) == "1" {
		// A host starting the server a host configuration names (mcptravel_test.go).
		os.Exit(cli.Main(append([]string{"cmdbridge"}, os.Args[1:]...), os.Stdout, os.Stderr, fixtureHost()))
	}
	if len(os.Args) > 1 && os.Args[1] == cli.SandboxRunCommand {
		// The sandbox lane's runner: the kernel starts this binary inside bwrap.
		os.Exit(cli.Main(append([]string{"cmdbridge"}, os.Args[1:]...), os.Stdout, os.Stderr, fixtureHost()))
	}
	os.Exit(runTests(m))
}

// runTests runs the tests with the fixture's program linked into a directory of their
// own.
func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cli-fixture-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := linkFxProgram(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// run calls cli.Main over the fixture in the workspace ws and returns stdout, stderr
// and the exit status; the subprocess lane runs the fixture's program.
func run(t *testing.T, ws string, args ...string) (string, string, int) {
	t.Helper()
	return runBin(t, ws, fxBin, fixtureHost(), args...)
}

// runSelf is run with this test binary as --bin: the program `mcp enable` writes into a
// host's configuration, which a host starts (TestMain serves the fixture as cmdbridge
// there).
func runSelf(t *testing.T, ws string, args ...string) (string, string, int) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	return runBin(t, ws, exe, fixtureHost(), args...)
}

func runBin(t *testing.T, ws, bin string, host cli.Host, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	argv := append([]string{"cmdbridge", "--workspace", ws, "--bin", bin}, args...)
	code := cli.Main(argv, &out, &errb, host)
	return out.String(), errb.String(), code
}

func TestCallBothLegacyLanesGiveTheSameOutput(t *testing.T) {
	ws := clitest.Workspace(t)
	var datas []string
	for _, lane := range []string{"adapter", "subprocess"} {
		stdout, stderr, code := run(t, ws, "call", "doc:read", "--input", `{"path":"a.txt","end_line":1}`, "--lane", lane)
		require.Equal(t, 0, code, stderr)
		out := clitest.DecodeOutput(t, stdout)
		assert.True(t, out.Success)
		assert.Equal(t, lane, out.Metadata["lane"])
		data, err := json.Marshal(out.Data)
		require.NoError(t, err)
		datas = append(datas, string(data))
	}
	assert.Equal(t, datas[0], datas[1])
	assert.Contains(t, datas[0], `"content":"hello\n"`)
}

func TestCallExitStatuses(t *testing.T) {
	ws := clitest.Workspace(t)
	cases := []struct {
		name     string
		args     []string
		code     int
		wantCode string // error.code in the printed Output, "" when nothing is printed
		stderr   string
	}{
		{"success", []string{"call", "doc_read", "--input", `{"path":"a.txt"}`}, 0, "", ""},
		{"flags before name", []string{"call", "--input", `{"path":"a.txt"}`, "DocRead"}, 0, "", ""},
		{"failed tool", []string{"call", "doc:read", "--input", `{"path":"missing.txt"}`}, 1, "NOT_FOUND", ""},
		{"unknown tool", []string{"call", "nope", "--input", `{}`}, 1, "TOOL_NOT_FOUND", ""},
		{"scope escape", []string{"call", "doc:read", "--input", `{"path":"../x"}`}, 1, "SCOPE_DENIED", ""},
		{"schema violation", []string{"call", "doc:read", "--input", `{"path":1}`}, 1, "INVALID_INPUT", ""},
		{"read scope only", []string{"call", "doc:write", "--input", `{"path":"b.txt","content":"x"}`, "--scope", "read:."}, 1, "SCOPE_DENIED", ""},
		{"malformed input", []string{"call", "doc:read", "--input", `[1]`}, 2, "", "--input is not a JSON object: line 1, column 1: a JSON array, expected an object"},
		{"no name", []string{"call", "--input", `{}`}, 2, "", "exactly one tool name"},
		{"bad lane", []string{"call", "doc:read", "--lane", "warp"}, 2, "", "--lane must be"},
		{"bad scope", []string{"call", "doc:read", "--scope", "x"}, 2, "", "read:PATH or write:PATH"},
		{"unknown flag", []string{"call", "doc:read", "--nope"}, 2, "", "flag provided but not defined"},
		{"unknown command", []string{"frobnicate"}, 2, "", "unknown command"},
		{"misspelt command", []string{"tols"}, 2, "", `unknown command "tols" (did you mean "tools"?)`},
		{"truncated input", []string{"call", "doc:read", "--input", `{"path":`}, 2, "", "--input is not a JSON object: line 1, column 9: unexpected end of input"},
		{"misspelt tool schema", []string{"tools", "schema", "doc:raed"}, 1, "", `unknown tool "doc:raed" (did you mean "doc:read"?)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := run(t, ws, tc.args...)
			assert.Equal(t, tc.code, code, "stdout %s stderr %s", stdout, stderr)
			if tc.wantCode != "" {
				out := clitest.DecodeOutput(t, stdout)
				require.NotNil(t, out.Error)
				assert.Equal(t, tc.wantCode, out.Error.Code)
			}
			if tc.stderr != "" {
				assert.Contains(t, stderr, tc.stderr)
			}
		})
	}
	// The refused write wrote nothing.
	assert.NoFileExists(t, filepath.Join(ws, "b.txt"))
}

// TestMisspellingsAreAnsweredWithTheNearestName: a tool or property a letter or two
// off is named in the refusal.
func TestMisspellingsAreAnsweredWithTheNearestName(t *testing.T) {
	ws := clitest.Workspace(t)
	stdout, _, code := run(t, ws, "call", "doc:raed", "--input", `{}`)
	require.Equal(t, 1, code)
	out := clitest.DecodeOutput(t, stdout)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeToolNotFound, out.Error.Code)
	assert.Equal(t, `unknown tool "doc:raed" (did you mean "doc:read"?)`, out.Error.Message)
	assert.Equal(t, map[string]any{"did_you_mean": "doc:read"}, out.Error.Details)

	for input, reason := range map[string]string{
		`{"path":"a.txt","endline":1}`: `unknown property (did you mean "end_line"?)`,
		`{"pth":"a.txt"}`:              `required property is missing ("pth" given instead?)`,
	} {
		stdout, _, code = run(t, ws, "call", "doc:read", "--input", input)
		require.Equal(t, 1, code)
		out = clitest.DecodeOutput(t, stdout)
		require.NotNil(t, out.Error)
		assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
		assert.Equal(t, reason, out.Error.Details.(map[string]any)["reason"], input)
	}
}

func TestVersion(t *testing.T) {
	ws := clitest.Workspace(t)
	long, _, code := run(t, ws, "--version")
	require.Equal(t, 0, code)
	short, _, code := run(t, ws, "version")
	require.Equal(t, 0, code)
	assert.Equal(t, long, short)
	assert.Regexp(t, `^\S+ version \S+ \(cmdbridge \S+.*go1\.\d+`, long)
}

func TestToolsListSchemaAndManifest(t *testing.T) {
	ws := clitest.Workspace(t)
	stdout, _, code := run(t, ws, "tools", "list", "--json")
	require.Equal(t, 0, code)
	var rows []struct{ Name, Route string }
	require.NoError(t, json.Unmarshal([]byte(stdout), &rows))
	routes := map[string]string{}
	for _, r := range rows {
		routes[r.Name] = r.Route
	}
	assert.Equal(t, map[string]string{"doc:read": "adapter", "doc:write": "adapter", "repo:status": "native", "lock:clear": "native"}, routes,
		"a command with a native twin stays on the adapter lane until routed native; a native-only tool is native")

	stdout, _, code = run(t, ws, "tools", "schema", "doc-read")
	require.Equal(t, 0, code)
	var schema struct {
		Type                 string                     `json:"type"`
		Properties           map[string]json.RawMessage `json:"properties"`
		Required             []string                   `json:"required"`
		AdditionalProperties json.RawMessage            `json:"additionalProperties"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &schema))
	assert.Equal(t, "object", schema.Type)
	assert.Contains(t, schema.Properties, "start_line")
	assert.Equal(t, []string{"path"}, schema.Required)
	assert.Equal(t, "false", string(schema.AdditionalProperties))

	_, stderr, code := run(t, ws, "tools", "schema", "nope")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `unknown tool "nope"`)

	m1, _, code := run(t, ws, "tools", "manifest")
	require.Equal(t, 0, code)
	m2, _, _ := run(t, ws, "tools", "manifest")
	assert.Equal(t, m1, m2, "the manifest is deterministic")
	assert.True(t, json.Valid([]byte(m1)))
}

func TestBatchPrintsResultsInRequestOrder(t *testing.T) {
	ws := clitest.Workspace(t)
	batch := filepath.Join(t.TempDir(), "batch.json")
	require.NoError(t, os.WriteFile(batch, []byte(`[
	  {"tool":"doc:read","input":{"path":"a.txt","end_line":1}},
	  {"tool":"doc:read","input":{"path":"missing.txt"}},
	  {"tool":"nope"},
	  {"tool":"doc:read","input":{"path":"a.txt","start_line":2}}
	]`), 0o644))
	stdout, stderr, code := run(t, ws, "batch", batch)
	assert.Equal(t, 1, code, stderr)
	var outs []tool.Output
	require.NoError(t, json.Unmarshal([]byte(stdout), &outs))
	require.Len(t, outs, 4)
	assert.True(t, outs[0].Success)
	assert.Equal(t, "NOT_FOUND", outs[1].Error.Code)
	assert.Equal(t, "TOOL_NOT_FOUND", outs[2].Error.Code)
	assert.True(t, outs[3].Success)
	assert.Contains(t, string(mustJSON(t, outs[3].Data)), `"content":"world\n"`)

	_, stderr, code = run(t, ws, "batch", filepath.Join(ws, "a.txt"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "JSON array")
}

func TestEvidenceVerifyDetectsTampering(t *testing.T) {
	ws := clitest.Workspace(t)
	for i := 0; i < 3; i++ {
		_, _, code := run(t, ws, "call", "doc:read", "--input", `{"path":"a.txt"}`)
		require.Equal(t, 0, code)
	}
	stdout, _, code := run(t, ws, "evidence", "verify")
	require.Equal(t, 0, code, stdout)
	assert.Contains(t, stdout, "3 records")

	receipts := filepath.Join(ws, ".cmdbridge", "evidence", "receipts.jsonl")
	data, err := os.ReadFile(receipts)
	require.NoError(t, err)
	edited := strings.Replace(string(data), `"doc:read"`, `"doc:write"`, 1)
	require.NotEqual(t, string(data), edited)
	require.NoError(t, os.WriteFile(receipts, []byte(edited), 0o644))
	stdout, _, code = run(t, ws, "evidence", "verify")
	assert.Equal(t, 1, code)
	assert.NotContains(t, stdout, "\nok\n")
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func TestEvidenceVerifyAgainstWitnessAndTrustedKey(t *testing.T) {
	ws := clitest.Workspace(t)
	witness := filepath.Join(t.TempDir(), "witness.jsonl")
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".cmdbridge"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".cmdbridge", "config.yaml"), []byte("evidence: {witness: "+witness+"}\n"), 0o644))
	for range 2 {
		_, stderr, code := run(t, ws, "call", "doc:read", "--input", `{"path":"a.txt"}`)
		require.Equal(t, 0, code, stderr)
	}
	dir := filepath.Join(ws, ".cmdbridge", "evidence")
	keyFile := filepath.Join(t.TempDir(), "trusted.key")
	key, err := os.ReadFile(filepath.Join(dir, "verifier.key"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(keyFile, key, 0o600))
	stdout, _, code := run(t, ws, "evidence", "verify", "--witness", witness, "--key", keyFile)
	require.Equal(t, 0, code, stdout)

	// Rewritten from scratch with a fresh key pair: consistent on its own, caught by
	// the witness and by the trusted key.
	for _, name := range []string{"receipts.jsonl", "checkpoints.jsonl", "signing.key", "verifier.key"} {
		require.NoError(t, os.Remove(filepath.Join(dir, name)))
	}
	require.NoError(t, os.Remove(filepath.Join(ws, ".cmdbridge", "config.yaml")))
	for range 2 {
		_, stderr, code := run(t, ws, "call", "doc:read", "--input", `{"path":"a.txt"}`)
		require.Equal(t, 0, code, stderr)
	}
	stdout, _, code = run(t, ws, "evidence", "verify")
	require.Equal(t, 0, code, "the forgery is self-consistent: %s", stdout)
	stdout, _, code = run(t, ws, "evidence", "verify", "--witness", witness)
	assert.Equal(t, 1, code, stdout)
	assert.Contains(t, stdout, "witness checkpoint")
	stdout, _, code = run(t, ws, "evidence", "verify", "--key", strings.TrimSpace(string(key)))
	assert.Equal(t, 1, code, stdout)
	assert.Contains(t, stdout, "not the trusted verifier key")
}
