package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/golden"
)

// mergedUsr is Debian's merged-/usr layout, fixed so the golden does not depend on the
// machine running the test.
var mergedUsr = layout{links: map[string]string{"/bin": "usr/bin", "/lib": "usr/lib", "/lib64": "usr/lib64", "/sbin": "usr/sbin"}}

func goldenRequest() Request {
	return Request{
		ToolName:      "wu:create",
		HandlerEntry:  Entry{Lane: LaneAdapter, Command: "wu:create"},
		Input:         []byte(`{"title":"x"}`),
		ScopeEnforced: Scopes{Read: []string{"/srv/ws", "/srv/ws/docs/../state/frozen"}, Write: []string{"/srv/ws/state", "/srv/out"}},
		ReceiptID:     "c-1",
		Workspace:     "/srv/ws",
		Env:           map[string]string{"DELIVERY_SEED": "7", "HOME": "/root", "A_FIRST": "1"},
	}
}

func TestProfileGolden(t *testing.T) {
	for _, c := range []struct {
		name    string
		proc    bool
		network bool
	}{{"full", true, false}, {"no-proc", false, false}, {"network", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			req := goldenRequest()
			req.Network = c.network
			p := buildProfile(req, c.proc, mergedUsr)
			got := strings.Join(p.argv, "\n") + "\n# " + p.hash + "\n"
			path := filepath.Join("testdata", "profile-"+c.name+".golden")
			if golden.Update() {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run with -update to create it")
			assert.Equal(t, string(want), got)
		})
	}
}

func TestProfileHasEveryMandatoryFlag(t *testing.T) {
	for _, host := range []Host{HostFull, HostNoProc} {
		for _, network := range []bool{false, true} {
			req := goldenRequest()
			req.Network = network
			argv, _ := Profile(req, host)
			for _, f := range []string{"--unshare-all", "--unshare-user", "--disable-userns", "--new-session", "--die-with-parent", "--clearenv"} {
				assert.Contains(t, argv, f, "%s network=%v", host, network)
			}
			assert.Equal(t, []string{"--uid", "65534"}, argv[slices.Index(argv, "--uid"):][:2])
			assert.Equal(t, []string{"--gid", "65534"}, argv[slices.Index(argv, "--gid"):][:2])
			assert.Equal(t, []string{"--cap-drop", "ALL"}, argv[slices.Index(argv, "--cap-drop"):][:2])
			assert.Equal(t, network, slices.Contains(argv, "--share-net"))
			assert.Equal(t, network, slices.Contains(argv, "/etc/resolv.conf"))
			assert.Equal(t, host == HostFull, slices.Contains(argv, "--proc"))
		}
	}
}

func TestProfileInnermostScopeWins(t *testing.T) {
	argv, _ := Profile(goldenRequest(), HostFull)
	pos := func(flag, path string) int {
		for i := 0; i+2 < len(argv); i++ {
			if argv[i] == flag && argv[i+1] == path && argv[i+2] == path {
				return i
			}
		}
		t.Fatalf("no %s %s in %q", flag, path, argv)
		return -1
	}
	ws, state, frozen := pos("--ro-bind", "/srv/ws"), pos("--bind", "/srv/ws/state"), pos("--ro-bind", "/srv/ws/state/frozen")
	assert.Less(t, ws, state, "a write scope inside a read scope mounts after it")
	assert.Less(t, state, frozen, "a read scope inside a write scope mounts after it")
	tmp := slices.Index(argv, "/tmp") // the first /tmp is HOME's value
	for i := range argv[:len(argv)-1] {
		if argv[i] == "--tmpfs" && argv[i+1] == "/tmp" {
			tmp = i
		}
	}
	assert.Greater(t, pos("--bind", "/srv/out"), tmp, "scopes mount after the system directories")
}

func TestProfileHashCoversTheProfileOnly(t *testing.T) {
	_, base := Profile(goldenRequest(), HostFull)
	same := goldenRequest()
	same.Input, same.ReceiptID, same.ToolName = []byte(`{"title":"other"}`), "c-2", "wu:edit"
	_, h := Profile(same, HostFull)
	assert.Equal(t, base, h, "input, receipt id and tool name are not the profile")

	changes := map[string]func(*Request){
		"network": func(r *Request) { r.Network = true },
		"env":     func(r *Request) { r.Env["DELIVERY_SEED"] = "8" },
		"scope":   func(r *Request) { r.ScopeEnforced.Write = append(r.ScopeEnforced.Write, "/srv/more") },
		"access": func(r *Request) {
			r.ScopeEnforced.Read, r.ScopeEnforced.Write = r.ScopeEnforced.Write, r.ScopeEnforced.Read
		},
		"workspace": func(r *Request) { r.Workspace = "/srv/out" },
	}
	for name, change := range changes {
		req := goldenRequest()
		change(&req)
		_, h := Profile(req, HostFull)
		assert.NotEqual(t, base, h, name)
	}
	_, degraded := Profile(goldenRequest(), HostNoProc)
	assert.NotEqual(t, base, degraded, "no-proc")
}

func TestProfileBaseEnvCannotBeOverridden(t *testing.T) {
	argv, _ := Profile(goldenRequest(), HostFull)
	var env []string
	for i := 0; i+2 < len(argv); i++ {
		if argv[i] == "--setenv" {
			env = append(env, argv[i+1]+"="+argv[i+2])
		}
	}
	assert.Equal(t, []string{"HOME=/tmp", "LANG=C.UTF-8", "PATH=/usr/bin:/bin", "A_FIRST=1", "DELIVERY_SEED=7"}, env)
}
