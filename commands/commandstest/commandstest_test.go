package commandstest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
	"github.com/cmdbridge/cmdbridge/parity"
)

func TestMain(m *testing.M) { os.Exit(outsidetest.M(m).Run()) }

// TestExitCodeIsRecorded: the binary records each run's exit code where parity's
// `exitcode N` reads it, a usage error's as well as a success's.
func TestExitCodeIsRecorded(t *testing.T) {
	exe := commandstest.Exe(t)
	file := filepath.Join(t.TempDir(), "exitcode")
	for _, tc := range []struct {
		args []string
		code string
	}{{[]string{"--version"}, "0"}, {[]string{"wu:status", "--no-such-flag"}, "2"}} {
		cmd := exec.Command(exe, tc.args...)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), parity.ExitFileVar+"="+file)
		err := cmd.Run()
		if tc.code == "0" {
			require.NoError(t, err)
		}
		got, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, tc.code, string(got), "delivery %v", tc.args)
	}
}
