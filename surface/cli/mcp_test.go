package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// rpcReply is one JSON-RPC response line of the MCP stream.
type rpcReply struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// serveMCP runs `cmdbridge mcp args…` in-process with its standard input and output
// replaced by pipes, sends requests (id 1…n after initialize, which is id 0) and returns
// the replies by id, the stderr text and the exit status.
func serveMCP(t *testing.T, ws string, args []string, requests ...string) (map[int]rpcReply, string, int) {
	t.Helper()
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	savedIn, savedOut := os.Stdin, os.Stdout
	os.Stdin, os.Stdout = inR, outW
	defer func() { os.Stdin, os.Stdout = savedIn, savedOut }()

	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	type ran struct {
		stderr string
		code   int
	}
	done := make(chan ran, 1)
	go func() {
		_, stderr, code := run(t, ws, append([]string{"mcp"}, args...)...)
		done <- ran{stderr, code}
	}()

	msgs := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"cli-test","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	for i, r := range requests {
		msgs = append(msgs, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, i+1, r))
	}
	for _, m := range msgs {
		_, err := inW.Write([]byte(m + "\n"))
		require.NoError(t, err)
	}
	replies := map[int]rpcReply{}
	deadline := time.After(time.Minute) // a bound, not a speed check
	var finished *ran
	for len(replies) < len(requests)+1 && finished == nil {
		select {
		case line, ok := <-lines:
			require.True(t, ok, "the stream ended early")
			var r rpcReply
			require.NoError(t, json.Unmarshal([]byte(line), &r), line)
			replies[r.ID] = r
		case r := <-done:
			finished = &r
		case <-deadline:
			t.Fatal("no reply from the server within a minute")
		}
	}
	require.NoError(t, inW.Close()) // end of input: the server returns
	if finished == nil {
		select {
		case r := <-done:
			finished = &r
		case <-deadline:
			t.Fatal("the server did not stop at the end of its input")
		}
	}
	_ = outW.Close()
	_ = inR.Close()
	for range lines {
	}
	return replies, finished.stderr, finished.code
}

func listedTools(t *testing.T, r rpcReply) []string {
	t.Helper()
	require.Nil(t, r.Error)
	var res struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
		NextCursor string `json:"nextCursor"`
	}
	require.NoError(t, json.Unmarshal(r.Result, &res))
	require.Empty(t, res.NextCursor, "one page")
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	sort.Strings(names)
	return names
}

// readOnlyTools is what `tools list --json` reports as read-only, in MCP spelling.
func readOnlyTools(t *testing.T, ws string) []string {
	stdout, stderr, code := run(t, ws, "tools", "list", "--json")
	require.Equal(t, 0, code, stderr)
	var rows []struct {
		Name     string `json:"name"`
		ReadOnly bool   `json:"read_only"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &rows))
	var names []string
	for _, r := range rows {
		if r.ReadOnly {
			names = append(names, tool.MCPName(r.Name))
		}
	}
	sort.Strings(names)
	require.Greater(t, len(rows), len(names), "some tools are not read-only")
	return names
}

func TestMCPProfileServesOnlyItsTools(t *testing.T) {
	ws := clitest.Workspace(t)
	want := readOnlyTools(t, ws)
	replies, stderr, code := serveMCP(t, ws, []string{"--profile", "read-only"},
		`"method":"tools/list"`,
		`"method":"tools/call","params":{"name":"doc_write","arguments":{"path":"b.txt","content":"x"}}`,
		`"method":"tools/call","params":{"name":"doc_read","arguments":{"path":"a.txt"}}`,
	)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, fmt.Sprintf("serving %d tools (profile read-only)", len(want)))
	names := listedTools(t, replies[1])
	assert.Equal(t, want, names)
	assert.Contains(t, names, "doc_read")
	assert.NotContains(t, names, "doc_write")

	// The hidden tool cannot be called by guessing its name: the server does not know it
	// (protocol error), or the kernel refuses it (tool error), never a success.
	hidden := replies[2]
	if hidden.Error != nil {
		assert.Contains(t, hidden.Error.Message, `unknown tool "doc_write"`)
	} else {
		assert.Contains(t, string(hidden.Result), `"isError":true`)
		assert.Contains(t, string(hidden.Result), tool.CodeToolDisabled)
	}
	assert.NoFileExists(t, filepath.Join(ws, "b.txt"))
	require.Nil(t, replies[3].Error)
	assert.Contains(t, string(replies[3].Result), `hello`)
	assert.NotContains(t, string(replies[3].Result), `"isError":true`)
}

func TestMCPToolsAndProfileIntersect(t *testing.T) {
	ws := clitest.Workspace(t)
	replies, stderr, code := serveMCP(t, ws, []string{"--profile", "read-only", "--tools", "doc:*", "--tools", "repo_status"},
		`"method":"tools/list"`)
	require.Equal(t, 0, code, stderr)
	names := listedTools(t, replies[1])
	require.NotEmpty(t, names)
	assert.Contains(t, names, "repo_status")
	for _, n := range names {
		assert.True(t, n == "repo_status" || strings.HasPrefix(n, "doc_"), n)
		assert.NotEqual(t, "doc_write", n)
	}
}

func TestMCPViewErrorsBeforeServing(t *testing.T) {
	ws := clitest.Workspace(t)
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".cmdbridge"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".cmdbridge", "config.yaml"), []byte(`
governance:
  disabled: [doc:write]
profiles:
  edit:
    description: change files
    tools: ["doc:*"]
    require: [doc:write]
  review:
    description: read
    tools: ["fiel:*"]
`), 0o644))
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--profile", "reviw"}, `unknown profile "reviw" (known: edit, non-destructive, read-only, review)`},
		{[]string{"--profile", "edit"}, "profile edit requires doc:write, but governance refuses it: disabled by configuration"},
		{[]string{"--profile", "review"}, `profile review: "fiel:*" matches no tool`},
		{[]string{"--tools", "nosuch:*"}, `tools: "nosuch:*" matches no tool`},
	}
	for _, tc := range cases {
		_, stderr, code := runSelf(t, ws, append([]string{"mcp"}, tc.args...)...)
		assert.Equal(t, 1, code, tc.args)
		assert.Contains(t, stderr, tc.want, tc.args)
	}
	// The same checks guard enable: nothing is written for a view that cannot start.
	t.Setenv("HOME", t.TempDir())
	_, stderr, code := runSelf(t, ws, "mcp", "enable", "claude", "--profile", "edit")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "profile edit requires doc:write")
	assert.NoFileExists(t, filepath.Join(ws, ".mcp.json"))

	stdout, _, code := runSelf(t, ws, "mcp", "profiles")
	assert.Equal(t, 1, code, "a broken profile fails the listing")
	assert.Regexp(t, `(?m)^read-only\s+built-in\s+\d+\s+every tool whose annotations say readOnlyHint`, stdout)
	assert.Regexp(t, `(?m)^edit\s+\.cmdbridge/config\.yaml\s+-\s+error: .*requires doc:write`, stdout)
}

type hostRow struct {
	Host  string   `json:"host"`
	Scope string   `json:"scope"`
	Path  string   `json:"path"`
	Name  string   `json:"name"`
	Args  []string `json:"args"`
	Error string   `json:"error"`
}

func listHosts(t *testing.T, ws string) map[string]hostRow {
	t.Helper()
	stdout, stderr, code := runSelf(t, ws, "mcp", "list", "--json")
	require.Equal(t, 0, code, stderr)
	var rows []hostRow
	require.NoError(t, json.Unmarshal([]byte(stdout), &rows), stdout)
	out := map[string]hostRow{}
	for _, r := range rows {
		key := r.Host + " " + r.Scope
		require.NotContains(t, out, key, "one entry per host and scope here")
		out[key] = r
	}
	return out
}

func readText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

func TestMCPEnableDisableList(t *testing.T) {
	ws := clitest.Workspace(t)
	home, xdg := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", xdg)
	exe, err := os.Executable()
	require.NoError(t, err)
	exe, err = filepath.Abs(exe)
	require.NoError(t, err)
	name := "cmdbridge-" + strings.ToLower(strings.Trim(nonAlnum.Replace(filepath.Base(ws)), "-"))
	// The project file names this program as PATH finds it, never by this machine's path.
	t.Setenv("PATH", filepath.Dir(exe)+string(os.PathListSeparator)+os.Getenv("PATH"))
	self := filepath.Base(exe)

	project := filepath.Join(ws, ".mcp.json")
	original := "{\"mcpServers\": {\"keep\": {\"command\": \"node\", \"args\": [\"x.js\"]}}, \"extra\": {\"z\": 1, \"a\": [true]}}\n"
	require.NoError(t, os.WriteFile(project, []byte(original), 0o644))

	for _, r := range listHosts(t, ws) {
		assert.Empty(t, r.Name, "nothing enabled yet: %+v", r)
		assert.Empty(t, r.Error)
	}

	stdout, stderr, code := runSelf(t, ws, "mcp", "enable", "claude", "--profile", "read-only")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, fmt.Sprintf("%s: added server %q", project, name))
	assert.Contains(t, stdout, "previous file saved as "+project+".bak")
	assert.Equal(t, original, readText(t, project+".bak"))
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
		Extra json.RawMessage `json:"extra"`
	}
	require.NoError(t, json.Unmarshal([]byte(readText(t, project)), &cfg))
	wantArgs := []string{"--workspace", "${CLAUDE_PROJECT_DIR:-.}", "--bin", self, "mcp", "--profile", "read-only"}
	assert.Equal(t, self, cfg.MCPServers[name].Command)
	assert.NotContains(t, readText(t, project), ws, "no path of this machine in a shared file")
	assert.Equal(t, wantArgs, cfg.MCPServers[name].Args)
	assert.Equal(t, "node", cfg.MCPServers["keep"].Command, "other servers survive")
	assert.JSONEq(t, `{"z": 1, "a": [true]}`, string(cfg.Extra), "unknown keys survive")
	enabled := readText(t, project)

	// Idempotent: a second run changes nothing and says so.
	stdout, stderr, code = runSelf(t, ws, "mcp", "enable", "claude", "--profile", "read-only")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "nothing changed")
	assert.NotContains(t, stdout, "previous file saved")
	assert.Equal(t, enabled, readText(t, project))
	assert.Equal(t, original, readText(t, project+".bak"))

	// User scopes land under the test's HOME and XDG_CONFIG_HOME.
	_, stderr, code = runSelf(t, ws, "mcp", "enable", "vscode", "--scope", "user", "--tools", "doc:*", "--name", "doc-only")
	require.Equal(t, 0, code, stderr)
	vscodeUser := filepath.Join(xdg, "Code", "User", "mcp.json")
	assert.JSONEq(t, fmt.Sprintf(`{"servers": {"doc-only": {"type": "stdio", "command": %q, "args": ["--workspace", %q, "--bin", %q, "mcp", "--tools", "doc:*"]}}}`, exe, ws, exe), readText(t, vscodeUser))
	assert.NoFileExists(t, vscodeUser+".bak", "a new file has no backup")
	_, stderr, code = runSelf(t, ws, "mcp", "enable", "cursor", "--scope", "user")
	require.Equal(t, 0, code, stderr)
	assert.FileExists(t, filepath.Join(home, ".cursor", "mcp.json"))

	rows := listHosts(t, ws)
	assert.Equal(t, name, rows["claude project"].Name)
	assert.Equal(t, wantArgs, rows["claude project"].Args)
	assert.Equal(t, "doc-only", rows["vscode user"].Name)
	assert.Equal(t, name, rows["cursor user"].Name)
	assert.Equal(t, filepath.Join(home, ".claude.json"), rows["claude user"].Path, "Claude Code's user scope")
	assert.Equal(t, filepath.Join(xdg, "Claude", "claude_desktop_config.json"), rows["claude-desktop user"].Path)
	assert.NotContains(t, rows, "claude-desktop project")
	for _, key := range []string{"claude user", "claude-desktop user", "vscode project", "cursor project"} {
		assert.Empty(t, rows[key].Name, key)
	}

	// Disable removes our entry only, after backing the file up.
	stdout, stderr, code = runSelf(t, ws, "mcp", "disable", "claude")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, fmt.Sprintf("removed server %q", name))
	assert.Equal(t, enabled, readText(t, project+".bak"))
	cfg.MCPServers = nil // Unmarshal merges into a map
	require.NoError(t, json.Unmarshal([]byte(readText(t, project)), &cfg))
	assert.Len(t, cfg.MCPServers, 1)
	assert.Contains(t, cfg.MCPServers, "keep")
	assert.JSONEq(t, `{"z": 1, "a": [true]}`, string(cfg.Extra))
	stdout, _, code = runSelf(t, ws, "mcp", "disable", "claude")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "nothing changed")

	// Another program's entry is never removed, even by name.
	before := readText(t, project)
	_, stderr, code = runSelf(t, ws, "mcp", "disable", "claude", "--name", "keep")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `server "keep" does not launch cmdbridge (node); left alone`)
	assert.Equal(t, before, readText(t, project))
	_, stderr, code = runSelf(t, ws, "mcp", "enable", "claude", "--name", "keep")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `server "keep" already launches node, another program`)
	assert.Equal(t, before, readText(t, project))

	stdout, stderr, code = runSelf(t, ws, "mcp", "disable", "vscode", "--scope", "user", "--name", "doc-only")
	require.Equal(t, 0, code, stderr)
	assert.NoFileExists(t, vscodeUser, "a file that held only our entry is removed, not left as {\"servers\": {}}")
	assert.Contains(t, stdout, "the file held nothing else and was removed")
}

var nonAlnum = strings.NewReplacer("_", "-", ".", "-")

func TestMCPEnableRefusesAMalformedHostFile(t *testing.T) {
	ws := clitest.Workspace(t)
	t.Setenv("HOME", t.TempDir())
	dir := filepath.Join(ws, ".cursor")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv("PATH", filepath.Dir(exe)+string(os.PathListSeparator)+os.Getenv("PATH"))
	bad := "{\"mcpServers\": {\"a\": {\"command\": \"x\" \"y\"}}}\n" // a missing comma (JSONC's trailing commas are fine)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(bad), 0o644))
	for _, args := range [][]string{{"enable", "cursor"}, {"disable", "cursor"}} {
		_, stderr, code := runSelf(t, ws, append([]string{"mcp"}, args...)...)
		assert.Equal(t, 1, code, args)
		assert.Contains(t, stderr, "is not a JSON object we can edit (left untouched)", args)
	}
	assert.Equal(t, bad, readText(t, filepath.Join(dir, "mcp.json")))
	assert.NoFileExists(t, filepath.Join(dir, "mcp.json.bak"))
	rows := listHosts(t, ws)
	assert.Contains(t, rows["cursor project"].Error, "is not a JSON object we can edit")

	for _, args := range [][]string{{"enable"}, {"enable", "zed"}, {"enable", "claude", "--scope", "global"}, {"disable"}} {
		_, _, code := runSelf(t, ws, append([]string{"mcp"}, args...)...)
		assert.Equal(t, 2, code, args)
	}
}

// TestMCPSchemaDialect: --schema-dialect chooses the form of the input schemas sent;
// the default is portable (no $schema, no top-level not), full sends the kernel's.
func TestMCPSchemaDialect(t *testing.T) {
	ws := clitest.Workspace(t)
	for _, tc := range []struct {
		args []string
		full bool
	}{{nil, false}, {[]string{"--schema-dialect", "full"}, true}} {
		replies, stderr, code := serveMCP(t, ws, append(tc.args, "--tools", "lock:clear"), `"method":"tools/list"`)
		require.Equal(t, 0, code, stderr)
		list := string(replies[1].Result)
		assert.Equal(t, tc.full, strings.Contains(list, `"$schema"`), list)
		assert.Equal(t, tc.full, strings.Contains(list, `"not"`), list)
		assert.Equal(t, !tc.full, strings.Contains(list, "Rules: "), list)
	}
	_, stderr, code := serveMCP(t, ws, []string{"--schema-dialect", "gemini"}, `"method":"tools/list"`)
	assert.NotEqual(t, 0, code)
	assert.Contains(t, stderr, "not one of portable, full, openai-strict")
}

// TestMCPOnDemand: --on-demand lists the three tools that find, describe and call the
// others.
func TestMCPOnDemand(t *testing.T) {
	ws := clitest.Workspace(t)
	replies, stderr, code := serveMCP(t, ws, []string{"--on-demand"}, `"method":"tools/list"`,
		`"method":"tools/call","params":{"name":"tool_call","arguments":{"name":"doc_read","arguments":{"path":"a.txt"}}}`)
	require.Equal(t, 0, code, stderr)
	assert.ElementsMatch(t, []string{"tools_search", "tool_describe", "tool_call"}, listedTools(t, replies[1]))
	require.Nil(t, replies[2].Error)
	assert.Contains(t, string(replies[2].Result), "hello")
	assert.NotContains(t, string(replies[2].Result), `"isError":true`)
}
