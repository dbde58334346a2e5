// Package clean uses no process global: native tools may call it freely.
package clean

import (
	"os"
	"path/filepath"
)

// Read reads a file under dir.
func Read(dir, name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }

// Env is a caller-built environment.
type Env struct{ Lookup func(string) (string, bool) }

// Home reads HOME from the caller's environment.
func (e Env) Home() string {
	v, _ := e.Lookup("HOME")
	return v
}
