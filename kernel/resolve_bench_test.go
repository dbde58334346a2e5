package kernel

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkResolvePath: what the kernel spends resolving one path input, walked
// component by component as the system's open walks it: an existing file five levels
// down, and a new one under a directory that does not exist yet.
func BenchmarkResolvePath(b *testing.B) {
	ws := b.TempDir()
	deep := filepath.Join(ws, "a", "b", "c", "d")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deep, "f.txt"), nil, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, p := range []string{"a/b/c/d/f.txt", "a/b/new/dir/f.txt"} {
		b.Run(filepath.Base(filepath.Dir(p)), func(b *testing.B) {
			for b.Loop() {
				resolvePath(ws, p)
			}
		})
	}
}
