// Package gittest holds the git helpers of this module's tests: a repository
// made with one empty commit, and git run with the machine's configuration shut out.
//
// Invariants:
//
//   - Only tests import it (it takes a testing.TB and fails the test on an error).
//   - Git never reads the user's or the system's configuration here: two machines make
//     the same repositories.
package gittest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// Init makes dir a repository on branch main with one empty commit.
func Init(t testing.TB, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init"},
	} {
		Run(t, dir, args...)
	}
}

// Run runs git with args in dir, without the global and system configuration, and
// returns its combined output; a failure fails the test.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return string(out)
}
