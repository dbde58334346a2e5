package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/parity/status"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/surface/cli/statuscmd"
)

// runStatus is run with the status command added, as cmd/cmdbridge adds it
// (statuscmd.Command in the host's subcommands).
func runStatus(t *testing.T, ws string, args ...string) (string, string, int) {
	t.Helper()
	h := fixtureHost()
	h.Subcommands = []*ucli.Command{statuscmd.Command()}
	return runBin(t, ws, fxBin, h, args...)
}

// statusRepo is a repository with two doc:read golden scripts (one of them also runs
// doc:write), a doc:read parity script, and (when withResults) a results file written by
// the parity package itself.
func statusRepo(t *testing.T, withResults bool) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"testdata/script/doc/doc_read.txtar":    "exec " + fxProgram + " doc:read --path a.txt\n",
		"testdata/script/doc/doc_edit.txtar":    "exec " + fxProgram + " doc:write --path a.txt --content x\nexec " + fxProgram + " doc:read --path a.txt\n",
		"testdata/script/parity/doc_read.txtar": "parity doc:read {\"path\":\"a.txt\"}\n",
	}
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	if withResults {
		res := parity.Results{RunAt: time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC), Tools: []parity.ToolResult{
			{Tool: "doc:read", Script: "testdata/script/parity/doc_read.txtar", Status: parity.StatusPass, Lanes: []string{"subprocess", "adapter", "native"}, DurationMS: 40},
			{Tool: "doc:write", Script: "testdata/script/parity/doc_write.txtar", Status: parity.StatusFail, Diff: "-  \"lane\": \"core\"\n+  \"lane\": \"ops\"\n"},
		}}
		require.NoError(t, res.Write(filepath.Join(dir, filepath.FromSlash(status.DefaultResults))))
	}
	return dir
}

func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.Walk(dir, func(path string, _ os.FileInfo, err error) error {
		out = append(out, path)
		return err
	}))
	return out
}

func TestStatusJSONReadsResultsAndScripts(t *testing.T) {
	repo := statusRepo(t, true)
	stdout, stderr, code := runStatus(t, clitest.Workspace(t), "status", "--dir", repo, "--json")
	require.Equal(t, 0, code, stderr)
	var rep status.Report
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)

	// Routes come from the same kernel `tools list` asks.
	listed, _, code := run(t, clitest.Workspace(t), "tools", "list", "--json")
	require.Equal(t, 0, code)
	var tools []struct{ Name, Route string }
	require.NoError(t, json.Unmarshal([]byte(listed), &tools))
	routes := map[string]string{}
	for _, tl := range tools {
		routes[tl.Name] = tl.Route
	}
	require.Len(t, rep.Tools, len(tools))
	assert.Equal(t, len(fxCommands().All()), rep.Totals.Commands)
	assert.True(t, rep.Results.Found)

	byName := map[string]status.ToolStatus{}
	for _, ts := range rep.Tools {
		byName[ts.Name] = ts
		assert.Equal(t, routes[ts.Name], ts.Route, ts.Name)
		if ts.HasCommand {
			cmd, _ := fxCommands().Lookup(ts.Name)
			assert.Equal(t, cmd.Tier, ts.Tier, ts.Name)
		} else {
			assert.Equal(t, status.TierNotApplicable, ts.Tier, ts.Name)
		}
	}
	st := byName["doc:read"]
	assert.Equal(t, status.ParityPass, st.Parity)
	assert.Equal(t, 2, st.GoldenScripts)
	assert.True(t, st.ParityScriptExists)
	assert.Equal(t, "doc", st.Domain)
	require.NotNil(t, st.LastParity)
	assert.Equal(t, "2026-03-01T09:30:00Z", st.LastParity.Format(time.RFC3339))
	cl := byName["doc:write"]
	assert.Equal(t, status.ParityFail, cl.Parity)
	assert.Contains(t, cl.Diff, `"lane": "ops"`)
	assert.Equal(t, 1, cl.GoldenScripts)
	assert.Equal(t, status.ParityNone, byName["repo:status"].Parity)
}

func TestStatusTextWithoutResultsLeavesRepoUntouched(t *testing.T) {
	repo := statusRepo(t, false)
	before := listTree(t, repo)
	stdout, stderr, code := runStatus(t, clitest.Workspace(t), "status", "--dir", repo)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `(?m)^TOOL +ROUTE +STAGE +PARITY +GOLDENS`, stdout)
	assert.Regexp(t, `(?m)^doc:read +\S+ +\S+ +none +2 +yes `, stdout)
	assert.Contains(t, stdout, "parity results: .cmdbridge/parity/last.json not found, so every tool's parity is none")
	assert.Regexp(t, `(?m)^totals: \d+ tools; of \d+ commands, `, stdout)
	assert.Equal(t, before, listTree(t, repo), "status only reads")
}

func TestStatusHTMLWritesThePage(t *testing.T) {
	repo := statusRepo(t, true)
	page := filepath.Join(t.TempDir(), "status.html")
	stdout, stderr, code := runStatus(t, clitest.Workspace(t), "status", "--dir", repo, "--html", page)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "status page written to")
	assert.Empty(t, stdout, "--html writes only the page")
	stdout, stderr, code = runStatus(t, clitest.Workspace(t), "status", "--dir", repo)
	require.Equal(t, 0, code, stderr)
	raw, err := os.ReadFile(page)
	require.NoError(t, err)
	html := string(raw)
	// One page row per table line: the lines between the header and the blank line.
	table := strings.SplitN(stdout, "\n\n", 2)[0]
	assert.Equal(t, strings.Count(table, "\n"), strings.Count(html, `<tbody class="tool"`))
	assert.Contains(t, html, `data-name="doc:read"`)
	assert.Contains(t, html, "&#34;lane&#34;: &#34;ops&#34;", "doc:write's diff, escaped")
}

func TestStatusErrors(t *testing.T) {
	repo := statusRepo(t, false)
	bad := filepath.Join(t.TempDir(), "last.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"schema_version": 9}`), 0o644))
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unreadable results", []string{"status", "--dir", repo, "--results", bad}, 1, "schema_version 9"},
		{"stray argument", []string{"status", "doc:read"}, 2, "status takes no arguments"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := runStatus(t, clitest.Workspace(t), c.args...)
			assert.Equal(t, c.code, code)
			assert.Contains(t, stderr, c.stderr)
		})
	}
}

// TestStatusNotLinkedSaysWhatToAdd: a command line without the status command says
// which line adds it, for a program's own line and for the light line's host.
func TestStatusNotLinkedSaysWhatToAdd(t *testing.T) {
	_, stderr, code := run(t, clitest.Workspace(t), "status")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "status is not linked into this program")
	assert.Contains(t, stderr, "host.Config{Subcommands: []*cli.Command{statuscmd.Command()}}")
	assert.Contains(t, stderr, `"github.com/cmdbridge/cmdbridge/surface/cli/statuscmd"`)

	h := fixtureHost()
	h.Adopted, h.Name, h.Self = true, "gizmo bridge", []string{"bridge"}
	_, stderr, code = runBin(t, clitest.Workspace(t), fxBin, h, "status")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "func init() { devcli.Enable() }")
	assert.Contains(t, stderr, "go run -tags cmdbridge_dev . bridge status")
}
