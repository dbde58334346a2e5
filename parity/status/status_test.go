package status_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/golden"
	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/parity/status"
)

// fixtureTools cover every stage: a migrated tool, a native tool whose parity fails, a
// shadow, two adapter tools (one erroring, one never run and with schema warnings) and a
// native-only tool.
func fixtureTools() []status.Tool {
	return []status.Tool{
		{Name: "wu:status", Domain: "wu", Route: "native", Command: true, Native: true},
		{Name: "wu:claim", Domain: "wu", Route: "native", Command: true, Native: true},
		{Name: "wu:create", Domain: "wu", Route: "shadow", Command: true, Native: true},
		{Name: "mem:signal", Domain: "memory", Route: "adapter", Command: true},
		{Name: "config:get", Domain: "files", Route: "adapter", Command: true, Warnings: []string{
			`flag --color: flag type *main.colorFlag is not a urfave/cli v2 type; it is a string passed as --name=value`,
			`ArgsUsage "<a> <b>|<script>x</script>" is outside the positional grammar: the positionals are one list args, passed verbatim`,
		}},
		{Name: "git:status", Domain: "git", Route: "native", Native: true},
	}
}

func fixtureTier(name string) string {
	switch name {
	case "git:status":
		panic("the tier source is never asked about a native-only tool")
	case "config:get":
		return "" // no verdict
	case "wu:claim":
		return "subprocess"
	}
	return "in-process"
}

func fixtureConfig() status.Config {
	return status.Config{
		Dir:     filepath.Join("testdata", "repo"),
		Results: filepath.Join("..", "results.json"),
		Tools:   fixtureTools(),
		Tier:    fixtureTier,
		Now:     func() time.Time { return time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC) },
		Program: "delivery", // the fixture's goldens run `exec delivery TOOL`
	}
}

func fixtureReport(t *testing.T) status.Report {
	t.Helper()
	rep, err := status.Build(fixtureConfig())
	require.NoError(t, err)
	return rep
}

func TestTextGolden(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, status.WriteText(&b, fixtureReport(t)))
	golden.Check(t, "status.txt", b.Bytes())
}

func TestJSONGolden(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, status.WriteJSON(&b, fixtureReport(t)))
	golden.Check(t, "status.json", b.Bytes())

	// The document round-trips into the documented type.
	var back status.Report
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	assert.Equal(t, status.SchemaVersion, back.SchemaVersion)
	assert.Len(t, back.Tools, len(fixtureTools()))
}

func TestBuildPerTool(t *testing.T) {
	rep := fixtureReport(t)
	byName := map[string]status.ToolStatus{}
	for _, ts := range rep.Tools {
		byName[ts.Name] = ts
	}
	cases := []struct {
		name, stage, parity, tier string
		goldens                   int
		script                    bool
		diff                      bool
	}{
		{"wu:status", status.StageNativeWithParity, status.ParityPass, "in-process", 2, true, false},
		{"wu:claim", status.StageNativeWithoutParity, status.ParityFail, "subprocess", 1, true, true},
		{"wu:create", status.StageShadow, status.ParityPass, "in-process", 0, false, false},
		{"mem:signal", status.StageAdapter, status.ParityError, "in-process", 0, false, true},
		{"config:get", status.StageAdapter, status.ParityNone, status.TierUnknown, 1, false, false},
		{"git:status", status.StageNativeOnly, status.ParityNone, status.TierNotApplicable, 0, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, ok := byName[c.name]
			require.True(t, ok)
			assert.Equal(t, c.stage, ts.Stage)
			assert.Equal(t, c.parity, ts.Parity)
			assert.Equal(t, c.tier, ts.Tier)
			assert.Equal(t, c.goldens, ts.GoldenScripts)
			assert.Equal(t, c.script, ts.ParityScriptExists)
			assert.Equal(t, c.diff, ts.Diff != "")
			assert.Equal(t, c.parity != status.ParityNone, ts.LastParity != nil)
		})
	}
	assert.Equal(t, []string{"wu:gone"}, rep.Results.UnknownTools)
}

func TestTotalsAddUp(t *testing.T) {
	tot := fixtureReport(t).Totals
	assert.Equal(t, 6, tot.Tools)
	assert.Equal(t, 5, tot.Commands)
	assert.Equal(t, tot.Commands, tot.NativeWithParity+tot.NativeWithoutParity+tot.Shadow+tot.Adapter)
	assert.Equal(t, tot.Tools, tot.Commands+tot.NativeOnly)
	assert.Equal(t, tot.Tools, tot.Parity.Pass+tot.Parity.Fail+tot.Parity.Error+tot.Parity.None)
	assert.Equal(t, 20.0, tot.ProgressPercent) // 1 of 5 commands
}

func TestMissingResultsMeansNone(t *testing.T) {
	dir := t.TempDir() // no .cmdbridge/parity/last.json, no scripts
	rep, err := status.Build(status.Config{Dir: dir, Tools: fixtureTools()})
	require.NoError(t, err)
	assert.False(t, rep.Results.Found)
	assert.Nil(t, rep.Results.RunAt)
	assert.Equal(t, status.DefaultResults, rep.Results.Path)
	for _, ts := range rep.Tools {
		assert.Equal(t, status.ParityNone, ts.Parity, ts.Name)
		if ts.HasCommand {
			assert.Equal(t, status.TierUnknown, ts.Tier, ts.Name)
		}
	}
	// Native routing without parity is exactly what the text must make visible.
	assert.Equal(t, 0, rep.Totals.NativeWithParity)
	assert.Equal(t, 2, rep.Totals.NativeWithoutParity)

	var b bytes.Buffer
	require.NoError(t, status.WriteText(&b, rep))
	assert.Contains(t, b.String(), "parity results: .cmdbridge/parity/last.json not found, so every tool's parity is none")
}

func TestDefaultResultsPathIsRead(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join("testdata", "results.json"))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".cmdbridge", "parity"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.FromSlash(status.DefaultResults)), raw, 0o644))
	rep, err := status.Build(status.Config{Dir: dir, Tools: fixtureTools()})
	require.NoError(t, err)
	assert.True(t, rep.Results.Found)
	assert.Equal(t, 2, rep.Totals.Parity.Pass)
}

func TestUnreadableResultsIsAnError(t *testing.T) {
	cases := map[string]string{
		"not json":       "{",
		"future version": `{"schema_version": 3, "run_at": "2026-03-01T09:30:00Z", "tools": []}`,
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "last.json")
			require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
			_, err := status.Build(status.Config{Dir: t.TempDir(), Results: path, Tools: fixtureTools()})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "parity results")
		})
	}
}

func TestInvoked(t *testing.T) {
	cases := []struct {
		name, script string
		want         []string
	}{
		{"delivery", "exec delivery wu:create --title x", []string{"wu:create"}},
		{"negated", "! exec delivery wu:claim", []string{"wu:claim"}},
		{"lane commands", "bridge wu:status {}\nnative mem:signal {}\nparity file:read {}", []string{"wu:status", "mem:signal", "file:read"}},
		{"cmdbridge call", "exec cmdbridge call config:get --input {}", []string{"config:get"}},
		{"comment", "# exec delivery wu:block", nil},
		{"real git", "exec git status --porcelain", nil},
		{"flag after invoker", "exec delivery --help", nil},
		{"another program", "exec gizmo notes:list", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := status.Invoked(c.script, "delivery")
			var names []string
			for n := range got {
				names = append(names, n)
			}
			assert.ElementsMatch(t, c.want, names)
		})
	}
	assert.Empty(t, status.Invoked("exec delivery wu:create", ""), "a program's name invokes only when it is the program")
}

func TestParityScript(t *testing.T) {
	assert.Equal(t, "testdata/script/parity/wu_status.txtar", status.ParityScript("wu:status"))
	assert.Equal(t, "testdata/script/parity/lane_lock_acquire.txtar", status.ParityScript("lane-lock:acquire"))
}

// TestInProgressIsItsOwnState: a scaffolded tool whose handler still answers
// NOT_IMPLEMENTED is in-progress in the model (with its diff and its own run time), in the
// totals and in the text, apart from the failing tools.
func TestInProgressIsItsOwnState(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "last.json")
	fileRun := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	toolRun := time.Date(2026, 2, 27, 8, 0, 0, 0, time.UTC)
	require.NoError(t, parity.Results{RunAt: fileRun, Tools: []parity.ToolResult{
		{Tool: "wu:claim", Status: parity.StatusInProgress, RunAt: toolRun, Lanes: []string{"subprocess", "adapter", "native"},
			Diff: "subprocess/native output /error/code\n    want: null\n    got:  \"NOT_IMPLEMENTED\""},
		{Tool: "mem:signal", Status: parity.StatusFail, Diff: "differs"},
	}}.Write(path))
	rep, err := status.Build(status.Config{Dir: dir, Results: path, Tools: []status.Tool{
		{Name: "wu:claim", Domain: "wu", Route: "adapter", Command: true, Native: true},
		{Name: "mem:signal", Domain: "memory", Route: "adapter", Command: true},
	}})
	require.NoError(t, err)
	require.Len(t, rep.Tools, 2)
	claim := rep.Tools[1]
	require.Equal(t, "wu:claim", claim.Name)
	assert.Equal(t, status.ParityInProgress, claim.Parity)
	assert.True(t, claim.InProgress)
	assert.Contains(t, claim.Diff, "NOT_IMPLEMENTED")
	require.NotNil(t, claim.LastParity)
	assert.Equal(t, toolRun, *claim.LastParity, "a tool's time is its own run's, not the file's")
	assert.Equal(t, fileRun, *rep.Tools[0].LastParity)
	assert.Equal(t, status.StageAdapter, claim.Stage)
	assert.Equal(t, status.ParityTotals{Fail: 1, InProgress: 1}, rep.Totals.Parity)

	var b bytes.Buffer
	require.NoError(t, status.WriteText(&b, rep))
	text := b.String()
	assert.Contains(t, text, "failing parity: mem:signal (fail);")
	assert.NotContains(t, text, "wu:claim (")
	assert.Contains(t, text, "in progress (scaffolded; the native handler answers NOT_IMPLEMENTED until it is written): wu:claim")
	assert.Contains(t, text, "parity: 0 pass, 1 fail, 0 error, 1 in progress, 0 none")
	assert.Regexp(t, `wu:claim\s+adapter\s+adapter\s+in-progress\s`, text)

	var j bytes.Buffer
	require.NoError(t, status.WriteJSON(&j, rep))
	assert.Contains(t, j.String(), `"parity": "in-progress",`)
	assert.Contains(t, j.String(), `"in_progress": true,`)
}
