package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

// realTemp returns a temp dir with symlinks resolved (macOS /tmp, bind mounts).
func realTemp(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return d
}

// codeOf is the code of the first *storage.Error in err's chain (delivery.CodeOf).
func codeOf(err error) string {
	var de *storage.Error
	if errors.As(err, &de) {
		return de.Code
	}
	return "not a coded error"
}
