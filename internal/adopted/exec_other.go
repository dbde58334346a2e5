//go:build !unix

package adopted

import (
	"errors"
	"os"
	"os/exec"
)

// execHost runs the host with this process's standard streams and returns its exit
// status: where a process cannot replace itself, the program waits for the host.
func execHost(path string, argv, env []string) (int, error) {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	return 0, err
}
