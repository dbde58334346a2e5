package parity

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/parity/compare"
)

// ChildEnv is set in the environment of a parity run that Supervise started: that run
// does the work, and its parent reports what it left unfinished.
const ChildEnv = "CMDBRIDGE_PARITY_CHILD"

// Supervise runs this executable with argv (the same parity command line) as a child
// with ChildEnv set, its streams being stdout and stderr, and returns the child's exit
// status. The child writes the results file before and after each script (and before
// each in-process lane); when it ends inside a script — a command's os.Exit or
// log.Fatal on an in-process lane, a crash — that tool's entry still reads an
// unfinished error. Supervise then prints each such tool with its reason and returns 1,
// so no run ends silently and no older pass is left showing.
func Supervise(argv []string, results string, stdout, stderr io.Writer) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("parity: %w", err)
	}
	start := time.Now().UTC().Truncate(time.Second)
	// The child's temporary files (the scripts' work directories, the lanes' copies, the
	// programs linked for the subprocess lane) go to a directory of this run's own,
	// removed when the child ends: a child that dies inside a script cannot clean up.
	tmp, err := os.MkdirTemp("", "cmdbridge-parity-")
	if err != nil {
		return 0, fmt.Errorf("parity: %w", err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command(exe, argv...)
	cmd.Env = append(os.Environ(), ChildEnv+"=1", "TMPDIR="+tmp)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	code := 0
	var exit *exec.ExitError
	switch err := cmd.Run(); {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		return 0, fmt.Errorf("parity: run %s: %w", exe, err)
	}
	res, err := ReadResults(results)
	if err != nil {
		return code, nil // nothing was written (a usage error, say): the child said why
	}
	died := false
	for _, t := range res.Tools {
		if t.Status == StatusError && !t.RunAt.Before(start) && strings.HasPrefix(t.Diff, compare.UnfinishedPrefix) {
			died = true
			fmt.Fprintf(stdout, "ERROR %s (the run ended inside its script)\n", t.Tool)
			fmt.Fprintf(stderr, "--- ERROR %s (%s)\n%s\n", t.Tool, t.Script, t.Diff)
		}
	}
	if !died {
		return code, nil
	}
	how := fmt.Sprintf("with exit code %d", code)
	if code < 0 {
		how = "on a signal"
	}
	fmt.Fprintf(stderr, "parity: the run ended %s before it finished; the tools above are errors in %s\n", how, results)
	return 1, nil
}
