package files

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// git runs git in dir and returns its stdout; a failure is GIT_ERROR with git's first
// stderr line. Git's stderr is not forwarded, so both lanes print the same diagnostics.
func git(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		line, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if line == "" {
			line = err.Error()
		}
		return stdout.Bytes(), delivery.Errorf(tool.CodeGitError, "git %s: %s", args[0], line)
	}
	return stdout.Bytes(), nil
}
