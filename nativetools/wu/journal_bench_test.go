package wu_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/nativetools"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// BenchmarkCreateCall is one whole native wu:create (journal, writes, git add and commit)
// per iteration: the call the write journal's own cost (kernel/journal's BenchmarkCall)
// is measured against.
func BenchmarkCreateCall(b *testing.B) {
	ws, err := filepath.EvalSymlinks(b.TempDir())
	require.NoError(b, err)
	require.NoError(b, os.WriteFile(filepath.Join(ws, "workspace.yaml"),
		[]byte("id: acme\nname: Acme\nsoftware_delivery:\n  lanes:\n    definitions:\n      - name: 'Core: API'\n"), 0o644))
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "workspace.yaml"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		require.NoError(b, err, "%s", out)
	}
	tl, ok := nativetools.Default.Lookup("wu:create")
	require.True(b, ok)
	env := map[string]string{}
	for k, v := range nt.Env {
		env[k] = v
	}
	delete(env, "DELIVERY_SEED") // every call draws its own ids
	for b.Loop() {
		e := &tool.Env{Dir: ws, LookupEnv: tool.EnvFromMap(env), Stdin: strings.NewReader(""), Log: io.Discard}
		if out := tl.Call(context.Background(), e, json.RawMessage(nextInput)); !out.Success {
			b.Fatal(out.Error)
		}
	}
}
