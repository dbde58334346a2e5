package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

// fakeBwrap writes a shell script standing in for bwrap: it answers --version and --help
// (with help's lines filtered by dropHelp), then runs body for real invocations.
func fakeBwrap(t *testing.T, dropHelp, body string) string {
	t.Helper()
	real, err := exec.LookPath("bwrap")
	if err != nil {
		real = "/nonexistent/bwrap"
	}
	help := "    --unshare-all  x\n"
	if err == nil {
		out, _ := exec.Command(real, "--help").Output()
		help = string(out)
	}
	if dropHelp != "" {
		var kept []string
		for _, line := range strings.Split(help, "\n") {
			if f := strings.Fields(line); len(f) > 0 && f[0] == dropHelp {
				continue
			}
			kept = append(kept, line)
		}
		help = strings.Join(kept, "\n")
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "help.txt"), []byte(help), 0o644))
	script := "#!/bin/sh\n" +
		"case \"$1\" in --version) echo 'bubblewrap 0.8.0-fake'; exit 0;; --help) cat '" + dir + "/help.txt'; exit 0;; esac\n" +
		"REAL='" + real + "'\n" + body + "\n"
	path := filepath.Join(dir, "bwrap")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

func runnerFor(t *testing.T, bwrap string) *Runner {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	r, err := New(Config{Bwrap: bwrap, Runner: []string{exe, argRunner}})
	require.NoError(t, err)
	return r
}

func TestProbeClassifiesHosts(t *testing.T) {
	failUserns := `for a in "$@"; do [ "$a" = --unshare-user ] && { echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1; }; done; exec "$REAL" "$@"`
	cases := []struct {
		name, bwrap string
		host        Host
		detail      string
	}{
		{"absent", filepath.Join(t.TempDir(), "no-such-bwrap"), HostAbsent, "not found"},
		{"no-userns", fakeBwrap(t, "", failUserns), HostNoUserns, "uid map: Permission denied"},
		{"too old for --disable-userns", fakeBwrap(t, "--disable-userns", `exec "$REAL" "$@"`), HostUnsupported, "lacks mandatory flags --disable-userns"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			host, detail := Probe(context.Background(), c.bwrap)
			assert.Equal(t, c.host, host)
			assert.Contains(t, detail, c.detail)
			assert.False(t, host.Usable())

			r := runnerFor(t, c.bwrap)
			d := scratch(t)
			out, info := r.Run(context.Background(), d.request("write", testInput{Path: filepath.Join(d.write, "never")}))
			require.NotNil(t, out.Error)
			assert.Equal(t, tool.CodeSandboxUnavailable, out.Error.Code)
			assert.Contains(t, out.Error.Message, "cannot run on this host ("+string(c.host)+")")
			assert.Empty(t, info.Argv, "nothing was started")
			assert.NoFileExists(t, filepath.Join(d.write, "never"), "the call must never run unsandboxed")
		})
	}
}

func TestProbeIsCachedPerPath(t *testing.T) {
	count := filepath.Join(t.TempDir(), "count")
	bwrap := fakeBwrap(t, "", `echo x >> '`+count+`'; exec "$REAL" "$@"`)
	h1, _ := Probe(context.Background(), bwrap)
	h2, _ := Probe(context.Background(), bwrap)
	assert.Equal(t, h1, h2)
	b, err := os.ReadFile(count)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(b), "x"), "two profile checks, once per path")
}

func TestNoProcHostRunsDegraded(t *testing.T) {
	realRunner(t) // needs the real bwrap underneath
	failProc := `for a in "$@"; do [ "$a" = --proc ] && { echo 'bwrap: Can not mount proc on /newroot/proc: Operation not permitted' >&2; exit 1; }; done; exec "$REAL" "$@"`
	bwrap := fakeBwrap(t, "", failProc)
	r := runnerFor(t, bwrap)
	require.Equal(t, HostNoProc, r.Host(), r.Detail())

	d := scratch(t)
	out, info := r.Run(context.Background(), d.request("stat", testInput{Path: "/proc/self/status"}))
	require.True(t, out.Success, "%+v %+v", out.Error, out.Metadata)
	assert.Equal(t, []string{"no-proc"}, info.Degraded)
	assert.Equal(t, []any{"no-proc"}, toJSONValue(t, out.Metadata["sandbox_degraded"]))
	assert.NotContains(t, info.Argv, "--proc")
	var data map[string]any
	require.NoError(t, json.Unmarshal(out.Data.(json.RawMessage), &data))
	assert.Equal(t, false, data["exists"])

	_, fullHash := Profile(d.request("stat", testInput{}), HostFull)
	assert.NotEqual(t, fullHash, info.ProfileHash, "a degraded profile must hash differently")
}

func toJSONValue(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}
