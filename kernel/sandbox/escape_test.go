package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

// realRunner returns a runner over the installed bwrap with the test binary as runner,
// skipping (with the missing capability named) where the host cannot sandbox. CI runs as
// root with bubblewrap installed, so there nothing skips.
func realRunner(tb testing.TB) *Runner {
	tb.Helper()
	exe, err := os.Executable()
	require.NoError(tb, err)
	r, err := New(Config{Runner: []string{exe, argRunner}})
	require.NoError(tb, err)
	if !r.Host().Usable() {
		tb.Skipf("needs a usable bwrap sandbox (user namespaces, --disable-userns); host is %s: %s", r.Host(), r.Detail())
	}
	return r
}

// layoutDirs is a scratch tree: read/ (a read scope holding write/ as a write scope),
// secret/ outside every scope.
type layoutDirs struct{ base, read, write, readInWrite, secret string }

func scratch(t *testing.T) layoutDirs {
	base := t.TempDir()
	d := layoutDirs{base: base, read: filepath.Join(base, "read"), secret: filepath.Join(base, "secret")}
	d.write = filepath.Join(d.read, "write")
	d.readInWrite = filepath.Join(d.write, "frozen")
	for _, dir := range []string{d.read, d.write, d.readInWrite, d.secret} {
		require.NoError(t, os.MkdirAll(dir, 0o777))
		require.NoError(t, os.Chmod(dir, 0o777)) // the sandbox runs as 65534
	}
	require.NoError(t, os.WriteFile(filepath.Join(d.secret, "key"), []byte("s3cret"), 0o644))
	return d
}

func (d layoutDirs) request(name string, in testInput) Request {
	raw, _ := json.Marshal(in)
	return Request{
		ToolName:      name,
		HandlerEntry:  Entry{Lane: LaneNative, Native: name},
		Input:         raw,
		ScopeEnforced: Scopes{Read: []string{d.read, d.readInWrite}, Write: []string{d.write}},
		ReceiptID:     "rcpt-" + name,
		Workspace:     d.read,
	}
}

func call(t *testing.T, r *Runner, req Request) (tool.Output, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, info := r.Run(ctx, req)
	require.True(t, out.Success, "%s: %+v %+v\nargv: %q", req.ToolName, out.Error, out.Metadata, info.Argv)
	var data map[string]any
	if raw, ok := out.Data.(json.RawMessage); ok {
		require.NoError(t, json.Unmarshal(raw, &data))
	}
	return out, data
}

func TestEscapeSuite(t *testing.T) {
	r := realRunner(t)
	d := scratch(t)

	t.Run("write to a read scope fails", func(t *testing.T) {
		target := filepath.Join(d.read, "planted")
		_, data := call(t, r, d.request("write", testInput{Path: target}))
		assert.Contains(t, data["err"], "read-only file system")
		assert.NoFileExists(t, target)
	})
	t.Run("write to a read scope inside a write scope fails", func(t *testing.T) {
		target := filepath.Join(d.readInWrite, "planted")
		_, data := call(t, r, d.request("write", testInput{Path: target}))
		assert.Contains(t, data["err"], "read-only file system")
		assert.NoFileExists(t, target)
	})
	t.Run("write to a write scope lands on the host", func(t *testing.T) {
		target := filepath.Join(d.write, "landed")
		_, data := call(t, r, d.request("write", testInput{Path: target}))
		assert.Equal(t, "", data["err"])
		b, err := os.ReadFile(target)
		require.NoError(t, err)
		assert.Equal(t, "written in the sandbox\n", string(b))
		st, err := os.Stat(target)
		require.NoError(t, err)
		// uid 65534 inside maps back to the invoking user outside.
		assert.Equal(t, uint32(os.Getuid()), st.Sys().(*syscall.Stat_t).Uid)
	})
	t.Run("paths outside every scope are invisible", func(t *testing.T) {
		wd, err := os.Getwd()
		require.NoError(t, err)
		home, _ := os.UserHomeDir()
		for _, p := range []string{d.secret, filepath.Join(d.secret, "key"), "/root", "/home", wd, home, "/etc/shadow", "/var"} {
			if p == "" {
				continue
			}
			_, data := call(t, r, d.request("stat", testInput{Path: p}))
			assert.Equal(t, false, data["exists"], p)
			assert.Contains(t, data["err"], "no such file or directory", p)
		}
		// Control: the same probe sees a scope, so "invisible" is not a broken probe.
		_, data := call(t, r, d.request("stat", testInput{Path: d.write}))
		assert.Equal(t, true, data["exists"])
	})
	t.Run("a hidden directory inside a scope is empty", func(t *testing.T) {
		state := filepath.Join(d.write, ".git", "cmdbridge")
		require.NoError(t, os.MkdirAll(state, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(state, "signing.key"), []byte("s3cret"), 0o600))
		req := d.request("stat", testInput{Path: filepath.Join(state, "signing.key")})
		_, data := call(t, r, req)
		require.Equal(t, true, data["exists"], "control: without Hidden the scope shows the file")
		req.Hidden = []string{state}
		_, data = call(t, r, req)
		assert.Equal(t, false, data["exists"])
		req = d.request("write", testInput{Path: filepath.Join(state, "signing.key")})
		req.Hidden = []string{state}
		call(t, r, req)
		b, err := os.ReadFile(filepath.Join(state, "signing.key"))
		require.NoError(t, err)
		assert.Equal(t, "s3cret", string(b), "a write under the hidden directory never reaches the host")
	})
	t.Run("remounting a scope read-write fails", func(t *testing.T) {
		_, data := call(t, r, d.request("remount", testInput{Path: d.read}))
		assert.Contains(t, data["bind"], "operation not permitted")
		assert.Contains(t, data["plain"], "operation not permitted")
		_, data = call(t, r, d.request("write", testInput{Path: filepath.Join(d.read, "after-remount")}))
		assert.Contains(t, data["err"], "read-only file system")
	})
	t.Run("nested user namespace fails", func(t *testing.T) {
		_, data := call(t, r, d.request("userns", testInput{}))
		// --disable-userns caps user namespaces at the current depth: ENOSPC, or EPERM
		// from a kernel that checks capabilities first. Either way, no namespace.
		clone := fmt.Sprint(data["clone"])
		assert.True(t, strings.Contains(clone, "no space left on device") || strings.Contains(clone, "operation not permitted"), clone)
		assert.NotEqual(t, "", data["unshare"])
	})
	t.Run("only lo exists without network", func(t *testing.T) {
		_, data := call(t, r, d.request("ifaces", testInput{}))
		assert.Equal(t, []any{"lo"}, data["names"])
	})
	t.Run("network is the host's when declared", func(t *testing.T) {
		host, err := net.Interfaces()
		require.NoError(t, err)
		want := []any{}
		for _, i := range host {
			want = append(want, i.Name)
		}
		req := d.request("ifaces", testInput{})
		req.Network = true
		_, data := call(t, r, req)
		assert.Equal(t, want, data["names"])
	})
	t.Run("no capabilities and uid 65534", func(t *testing.T) {
		_, data := call(t, r, d.request("status", testInput{}))
		for _, k := range []string{"CapEff", "CapPrm", "CapInh", "CapBnd", "CapAmb"} {
			assert.Equal(t, "0000000000000000", data[k], k)
		}
		assert.Equal(t, "1", data["NoNewPrivs"])
		assert.True(t, strings.HasPrefix(fmt.Sprint(data["Uid"]), "65534"), data["Uid"])
		assert.True(t, strings.HasPrefix(fmt.Sprint(data["Gid"]), "65534"), data["Gid"])
	})
	t.Run("host environment variables are absent", func(t *testing.T) {
		t.Setenv("CMDBRIDGE_SANDBOX_CANARY", "leaked")
		req := d.request("environ", testInput{})
		req.Env = map[string]string{"DELIVERY_SEED": "42", "PATH": "/evil"}
		_, data := call(t, r, req)
		env := []string{}
		for _, e := range data["env"].([]any) {
			env = append(env, e.(string))
		}
		assert.ElementsMatch(t, []string{"HOME=/tmp", "LANG=C.UTF-8", "PATH=/usr/bin:/bin", "DELIVERY_SEED=42",
			"PWD=" + d.read}, env) // bwrap sets PWD with --chdir
	})
	t.Run("after a timeout no process of the call survives", func(t *testing.T) {
		marker := fmt.Sprintf("cmdbridge-sandbox-daemon-%d-%d", os.Getpid(), time.Now().UnixNano())
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		type ran struct {
			out  tool.Output
			info Info
		}
		done := make(chan ran, 1)
		go func() {
			out, info := r.Run(ctx, d.request("daemon", testInput{Marker: marker}))
			done <- ran{out, info}
		}()
		// The daemon must really have been running (seen from the host) for its absence
		// afterwards to mean anything.
		require.Eventually(t, func() bool { return len(hostPIDsWith(marker)) > 0 }, 3*time.Second, 10*time.Millisecond,
			"the setsid daemon never appeared on the host")
		res := <-done
		assert.Equal(t, tool.CodeTimeout, res.out.Error.Code)
		assert.Equal(t, "rcpt-daemon", res.out.Metadata["receipt_id"])
		// Death of the pid namespace is asynchronous to bwrap's reaping; give it a moment.
		assert.Eventually(t, func() bool { return len(hostPIDsWith(marker)) == 0 }, 5*time.Second, 10*time.Millisecond,
			"processes survived the sandbox: %v", hostPIDsWith(marker))
		assert.Empty(t, hostPIDsWith(argRunner+"\x00"), "a runner survived")
	})
}

// hostPIDsWith lists host processes whose command line contains marker.
func hostPIDsWith(marker string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b)+"\x00", marker) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
