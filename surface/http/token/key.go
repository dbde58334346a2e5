package token

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// KeySize is the length of a signing key in bytes.
const KeySize = 32

// KeyPath is where a workspace keeps its signing key, given its state directory (the
// kernel's State().Root; see kernel/statedir): never inside the work tree.
func KeyPath(stateDir string) string {
	return filepath.Join(stateDir, "token.key")
}

// LoadKey reads the workspace key from its state directory, creating it on first use.
func LoadKey(stateDir string) ([]byte, error) {
	path := KeyPath(stateDir)
	key, err := readKey(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := install(path, false); err != nil {
		return nil, err
	}
	return readKey(path)
}

// Rotate replaces the workspace key (in its state directory) with a fresh one: every
// token minted under the old key stops verifying. A running server keeps the key it
// loaded until it restarts.
func Rotate(stateDir string) error { return install(KeyPath(stateDir), true) }

func readKey(path string) ([]byte, error) {
	key, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("token key: %w", err)
	}
	if len(key) != KeySize {
		return nil, fmt.Errorf("token key %s: %d bytes, want %d (delete it or run 'cmdbridge token rotate')", filepath.Base(path), len(key), KeySize)
	}
	return key, nil
}

// install writes a fresh key aside and moves it into place: a link when the file must
// not exist yet (the first creator wins, the others read its key), a rename otherwise.
func install(path string, replace bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("token key: %w", err)
	}
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return fmt.Errorf("token key: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".token.key.*")
	if err != nil {
		return fmt.Errorf("token key: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("token key: %w", err)
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		return fmt.Errorf("token key: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("token key: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("token key: %w", err)
	}
	if replace {
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("token key: %w", err)
		}
		return nil
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("token key: %w", err)
	}
	return nil
}
