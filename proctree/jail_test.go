package proctree_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/proctree"
)

func TestJailFromContextThenEnvironment(t *testing.T) {
	ctxJail := &proctree.Jail{Hide: []string{"/ctx"}}
	envJail := &proctree.Jail{Hide: []string{"/env"}, Unconfined: true}
	name, value, _ := strings.Cut(envJail.Environ(), "=")
	require.Equal(t, proctree.JailEnv, name)
	lookup := func(k string) (string, bool) { return value, k == proctree.JailEnv }

	j, err := proctree.JailFrom(proctree.WithJail(context.Background(), ctxJail), lookup)
	require.NoError(t, err)
	assert.Same(t, ctxJail, j, "the context's jail wins")
	j, err = proctree.JailFrom(context.Background(), lookup)
	require.NoError(t, err)
	assert.Equal(t, envJail, j, "else the environment's")
	j, err = proctree.JailFrom(context.Background(), nil)
	require.NoError(t, err)
	assert.Nil(t, j, "no host asked for one")
	_, err = proctree.JailFrom(context.Background(), func(string) (string, bool) { return "{not json", true })
	assert.Error(t, err, "a variable that does not parse is no jail")
}

func TestConfineWithoutBwrap(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	cmd := exec.Command("/bin/true")
	err := (&proctree.Jail{Hide: []string{"/x"}}).Confine(cmd)
	require.ErrorIs(t, err, proctree.ErrNoJail)
	assert.Contains(t, err.Error(), "install bubblewrap")
	assert.Equal(t, "/bin/true", cmd.Path, "nothing rewritten")

	require.NoError(t, (&proctree.Jail{Unconfined: true}).Confine(cmd), "the operator consented")
	assert.Equal(t, "/bin/true", cmd.Path)
	var none *proctree.Jail
	require.NoError(t, none.Confine(cmd), "no jail asked for")
	assert.Equal(t, []string{"/bin/true"}, cmd.Args)
}

// TestJailHidesAndMakesReadOnly: inside, a hidden directory is empty, a read-only one
// refuses writes, the rest of the host is there, writes elsewhere land on the host, and
// no process outside the jail is visible.
func TestJailHidesAndMakesReadOnly(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("host capability missing: bubblewrap (bwrap) on PATH")
	}
	t.Run("disk", func(t *testing.T) { jailHidesAndMakesReadOnly(t, t.TempDir()) })
	// The jail makes a fresh /dev: a workspace on the host's /dev/shm tmpfs must still be
	// there, with the same hiding and read-only binds.
	t.Run("dev-shm", func(t *testing.T) {
		if fi, err := os.Stat("/dev/shm"); err != nil || !fi.IsDir() {
			t.Skip("host capability missing: a /dev/shm directory")
		}
		dir, err := os.MkdirTemp("/dev/shm", "jail-test-")
		require.NoError(t, err)
		t.Cleanup(func() { os.RemoveAll(dir) })
		jailHidesAndMakesReadOnly(t, dir)
	})
}

func jailHidesAndMakesReadOnly(t *testing.T, dir string) {
	secret, ro, work := filepath.Join(dir, "state"), filepath.Join(dir, "ro"), filepath.Join(dir, "work")
	for _, d := range []string{secret, ro, work} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(secret, "key"), []byte("s3cret"), 0o600))
	cmd := exec.Command("/bin/sh", "-c", `cat ../state/key; touch ../ro/x || echo ro-refused; echo hi > out; ls /proc | grep -c '^[0-9]'; kill -0 `+
		itoa(os.Getpid())+` || echo host-invisible`)
	cmd.Dir = work
	require.NoError(t, (&proctree.Jail{Hide: []string{secret}, ReadOnly: []string{ro}}).Confine(cmd))
	out, _ := cmd.CombinedOutput()
	assert.NotContains(t, string(out), "s3cret")
	assert.Contains(t, string(out), "ro-refused")
	assert.Contains(t, string(out), "host-invisible")
	b, err := os.ReadFile(filepath.Join(work, "out"))
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "hi\n", string(b))
}

// BenchmarkJailHandOff is what every kernel call pays for the jail whether or not it
// spawns anything: the context value, and for a legacy lane the JailEnv entry.
func BenchmarkJailHandOff(b *testing.B) {
	j := &proctree.Jail{Hide: []string{"/srv/repo/.git/cmdbridge", "/srv/repo/.git/cmdbridge/evidence"},
		ReadOnly: []string{"/srv/repo/.git", "/srv/repo/.cmdbridge"}}
	for b.Loop() {
		ctx := proctree.WithJail(context.Background(), j)
		got, _ := proctree.JailFrom(ctx, nil)
		_ = got.Environ()
	}
}
