package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

type keyIn struct {
	Key string `json:"key"`
}

// wrongConfigGet is a native config:get that answers set=false for every key.
func wrongConfigGet() *native.Registry {
	reg := native.NewRegistry()
	_ = reg.Add(native.New(tool.Spec{Name: "config:get"}, func(_ context.Context, _ *tool.Env, in keyIn) tool.Output {
		return tool.OK(map[string]any{"key": in.Key, "set": false, "value": true})
	}))
	return reg
}

func runParityCLI(t *testing.T, nreg *native.Registry, args ...string) (string, string, int, string) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv(asDelivery, "1") // the subprocess lane's delivery symlink points at this test binary
	results := filepath.Join(t.TempDir(), "last.json")
	argv := append([]string{"cmdbridge", "--bin", exe, "parity", "--results", results}, args...)
	var out, errb bytes.Buffer
	code := cli.Main(argv, &out, &errb, cli.Host{Commands: commands.Default, Native: nreg, Runtime: delivery.ToolRuntime, Program: "delivery"})
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
			map[string]string{"config:get": "pass"}, []string{"subprocess", "adapter"}, ""},
		{"golden differs", native.NewRegistry(), []string{"--dir", fail}, 1,
			map[string]string{"config:get": "pass", "file:write": "fail"}, nil, "want/out.json differ"},
		{"native lane differs", wrongConfigGet(), []string{"--dir", pass, "config:get"}, 1,
			map[string]string{"config:get": "fail"}, []string{"subprocess", "adapter", "native"},
			"subprocess/native output /data/set\n    want: true\n    got:  false"},
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
	assert.Equal(t, "config:get", doc.Suites[0].Cases[0].Name)
	assert.Nil(t, doc.Suites[0].Cases[0].Failure)
	require.NotNil(t, doc.Suites[0].Cases[1].Failure)
	assert.Contains(t, doc.Suites[0].Cases[1].Failure.Text, "want/out.json differ")
}

func TestParityCLIUsage(t *testing.T) {
	_, stderr, code, _ := runParityCLI(t, nil, "--dir", filepath.Join(t.TempDir(), "none"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no script directory")
	pass, _ := filepath.Abs(filepath.Join("testdata", "parity", "pass"))
	_, stderr, code, _ = runParityCLI(t, nil, "--dir", pass, "wu:status")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no parity script for wu:status")
}
