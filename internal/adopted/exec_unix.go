//go:build unix

package adopted

import "syscall"

// execHost replaces this process with the host; it returns only when that fails.
func execHost(path string, argv, env []string) (int, error) {
	return 0, syscall.Exec(path, argv, env)
}
