package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/devcli"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// wrongDocRead is a native doc:read that answers an empty file whatever it reads.
func wrongDocRead() *native.Registry {
	reg := native.NewRegistry()
	_ = reg.Add(native.New(tool.Spec{Name: "doc:read"}, func(_ context.Context, _ *tool.Env, in docReadIn) tool.Output {
		return tool.OK(docData(in.Path, ""))
	}))
	return reg
}

// runParityCLI runs `cmdbridge parity` over the fixture's commands and the native tools
// of nreg; the subprocess lane runs the fixture's program.
func runParityCLI(t *testing.T, nreg *native.Registry, args ...string) (string, string, int, string) {
	t.Helper()
	results := filepath.Join(t.TempDir(), "last.json")
	argv := append([]string{"cmdbridge", "--bin", fxBin, "parity", "--results", results}, args...)
	var out, errb bytes.Buffer
	code := cli.Main(argv, &out, &errb, cli.Host{Config: hostconfig.Config{Commands: fxCommands(), Native: nreg, Subcommands: devcli.Commands()}, Program: fxProgram})
	return out.String(), errb.String(), code, results
}

func TestParityCLI(t *testing.T) {
	pass, _ := filepath.Abs(filepath.Join("testdata", "parity", "pass"))
	fail, _ := filepath.Abs(filepath.Join("testdata", "parity", "fail"))
	for _, tc := range []struct {
		name     string
		native   *native.Registry
		args     []string
		code     int
		statuses map[string]string
		lanes    []string
		stderr   string
	}{
		{"pass", native.NewRegistry(), []string{"--dir", pass}, 0,
			map[string]string{"doc:read": "pass"}, []string{"subprocess", "adapter"}, ""},
		{"golden differs", native.NewRegistry(), []string{"--dir", fail}, 1,
			map[string]string{"doc:read": "pass", "doc:write": "fail"}, nil, "want/out.json differ"},
		{"native lane differs", wrongDocRead(), []string{"--dir", pass, "doc:read"}, 1,
			map[string]string{"doc:read": "fail"}, []string{"subprocess", "adapter", "native"},
			"subprocess/native output /data/content\n    want: \"hello\\n\"\n    got:  \"\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code, results := runParityCLI(t, tc.native, tc.args...)
			assert.Equal(t, tc.code, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			assert.Contains(t, stderr, tc.stderr)
			res, err := parity.ReadResults(results)
			require.NoError(t, err)
			got := map[string]string{}
			for _, r := range res.Tools {
				got[r.Tool] = r.Status
				assert.Equal(t, r.Status == parity.StatusPass, r.Diff == "", r.Diff)
				if tc.lanes != nil {
					assert.Equal(t, tc.lanes, r.Lanes)
				}
			}
			assert.Equal(t, tc.statuses, got)
			assert.Contains(t, stdout, "parity: ")
		})
	}
}

func TestParityCLIJSONAndJUnit(t *testing.T) {
	fail, _ := filepath.Abs(filepath.Join("testdata", "parity", "fail"))
	junit := filepath.Join(t.TempDir(), "junit.xml")
	stdout, _, code, results := runParityCLI(t, native.NewRegistry(), "--dir", fail, "--json", "--junit", junit)
	assert.Equal(t, 1, code)
	var printed parity.Results
	require.NoError(t, json.Unmarshal([]byte(stdout), &printed), stdout)
	written, err := parity.ReadResults(results)
	require.NoError(t, err)
	assert.Equal(t, written.Tools, printed.Tools)
	require.Len(t, printed.Tools, 2)

	b, err := os.ReadFile(junit)
	require.NoError(t, err)
	var doc struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Text string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(b, &doc))
	require.Len(t, doc.Suites, 1)
	assert.Equal(t, 2, doc.Suites[0].Tests)
	assert.Equal(t, 1, doc.Suites[0].Failures)
	require.Len(t, doc.Suites[0].Cases, 2)
	assert.Equal(t, "doc:read", doc.Suites[0].Cases[0].Name)
	assert.Nil(t, doc.Suites[0].Cases[0].Failure)
	require.NotNil(t, doc.Suites[0].Cases[1].Failure)
	assert.Contains(t, doc.Suites[0].Cases[1].Failure.Text, "want/out.json differ")
}

func TestParityCLIUsage(t *testing.T) {
	_, stderr, code, _ := runParityCLI(t, nil, "--dir", filepath.Join(t.TempDir(), "none"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no script directory")
	pass, _ := filepath.Abs(filepath.Join("testdata", "parity", "pass"))
	_, stderr, code, _ = runParityCLI(t, nil, "--dir", pass, "repo:status")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no parity script for repo:status")
}

// TestParityCLIMergesPerTool: a run of one tool rewrites only that tool's entry of the
// results file; the others keep their status and time. Inside a test binary the
// stale-binary check says it is off.
func TestParityCLIMergesPerTool(t *testing.T) {
	pass, _ := filepath.Abs(filepath.Join("testdata", "parity", "pass"))
	results := filepath.Join(t.TempDir(), "last.json")
	day1 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	require.NoError(t, parity.Results{RunAt: day1, Tools: []parity.ToolResult{
		{Tool: "doc:write", Status: parity.StatusPass, RunAt: day1, Lanes: []string{"subprocess", "adapter"}},
		{Tool: "doc:read", Status: parity.StatusFail, RunAt: day1, Diff: "old"},
	}}.Write(results))
	_, stderr, code, _ := runParityCLI(t, native.NewRegistry(), "--results", results, "--dir", pass, "doc:read")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "stale-binary check off: this is a go test binary")
	got, err := parity.ReadResults(results)
	require.NoError(t, err)
	require.Len(t, got.Tools, 2)
	assert.Equal(t, "doc:write", got.Tools[0].Tool)
	assert.Equal(t, parity.StatusPass, got.Tools[0].Status)
	assert.Equal(t, day1, got.Tools[0].RunAt, "a tool not run keeps its time")
	assert.Equal(t, "doc:read", got.Tools[1].Tool)
	assert.Equal(t, parity.StatusPass, got.Tools[1].Status)
	assert.True(t, got.Tools[1].RunAt.After(day1))
	assert.True(t, got.RunAt.After(day1))
}

// TestParityCLIInProgress: a tool whose native handler answers NOT_IMPLEMENTED is
// reported in progress; the run exits 1 unless --allow-in-progress, which never covers a
// tool routed native.
func TestParityCLIInProgress(t *testing.T) {
	pass, _ := filepath.Abs(filepath.Join("testdata", "parity", "pass"))
	skeleton := func(routes map[string]string) *native.Registry {
		reg := native.NewRegistry()
		require.NoError(t, reg.Add(native.New(tool.Spec{Name: "doc:read"}, func(context.Context, *tool.Env, docReadIn) tool.Output {
			return tool.Fail(tool.CodeNotImplemented, "doc:read: the native handler is not written yet")
		})))
		reg.SetRoutes(routes)
		return reg
	}
	for _, tc := range []struct {
		name   string
		routes map[string]string
		args   []string
		code   int
		stderr string
	}{
		{"default", nil, nil, 1, "parity: exit 1; --allow-in-progress accepts"},
		{"allowed", nil, []string{"--allow-in-progress"}, 0, "allowed by --allow-in-progress"},
		{"routed native", map[string]string{"doc:read": "native"}, []string{"--allow-in-progress"}, 1, "routed native while in progress"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code, results := runParityCLI(t, skeleton(tc.routes), append([]string{"--dir", pass}, tc.args...)...)
			assert.Equal(t, tc.code, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			assert.Contains(t, stdout, "parity: 0 passed, 0 failed, 0 errors, 1 in progress")
			assert.Contains(t, stderr, "IN PROGRESS (native handler answers NOT_IMPLEMENTED; write it, rebuild, run parity again): doc:read")
			assert.Contains(t, stderr, tc.stderr)
			res, err := parity.ReadResults(results)
			require.NoError(t, err)
			require.Len(t, res.Tools, 1)
			assert.Equal(t, parity.StatusInProgress, res.Tools[0].Status)
			assert.Contains(t, res.Tools[0].Diff, "NOT_IMPLEMENTED")
		})
	}
}

// TestParityCLINeverLeavesAnOlderPass: while a tool's script runs, the results file
// already holds an error for it, so a run that dies there (a lane taking the process
// down, an interrupt) leaves no older pass behind.
func TestParityCLINeverLeavesAnOlderPass(t *testing.T) {
	pass, _ := filepath.Abs(filepath.Join("testdata", "parity", "pass"))
	results := filepath.Join(t.TempDir(), "last.json")
	day1 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	require.NoError(t, parity.Results{RunAt: day1, Tools: []parity.ToolResult{
		{Tool: "doc:read", Status: parity.StatusPass, RunAt: day1},
	}}.Write(results))
	var during parity.Results
	reg := native.NewRegistry()
	require.NoError(t, reg.Add(native.New(tool.Spec{Name: "doc:read"}, func(_ context.Context, env *tool.Env, in docReadIn) tool.Output {
		var err error
		during, err = parity.ReadResults(results) // what a crash here would leave
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(env.Dir, in.Path))
		require.NoError(t, err)
		return tool.OK(docData(in.Path, string(b)))
	})))
	_, stderr, code, _ := runParityCLI(t, reg, "--results", results, "--dir", pass)
	require.Equal(t, 0, code, stderr)
	require.Len(t, during.Tools, 1)
	assert.Equal(t, parity.StatusError, during.Tools[0].Status)
	assert.Contains(t, during.Tools[0].Diff, "did not finish")
	after, err := parity.ReadResults(results)
	require.NoError(t, err)
	require.Len(t, after.Tools, 1)
	assert.Equal(t, parity.StatusPass, after.Tools[0].Status)
}
