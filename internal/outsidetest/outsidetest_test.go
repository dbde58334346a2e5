package outsidetest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

func TestMain(m *testing.M) { os.Exit(outsidetest.M(m).Run()) }

// TestDBKitAdoptsInOneLine: the adopted dbkit lists its commands as tools; the plain
// one has no bridge subcommand.
func TestDBKitAdoptsInOneLine(t *testing.T) {
	root := outsidetest.RepoRoot(t)
	plain := outsidetest.Build(t, "dbkit-plain", outsidetest.DBKitPlain(root))
	out, err := exec.Command(plain.Exe("dbkit"), "bridge", "tools", "list").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "No help topic for 'bridge'") {
		t.Fatalf("plain dbkit answered bridge: %v\n%s", err, out)
	}
	adopted := outsidetest.Build(t, "dbkit", outsidetest.DBKit(root, "nil"))
	out, err = exec.Command(adopted.Exe("dbkit"), "bridge", "tools", "list").CombinedOutput()
	if err != nil {
		t.Fatalf("dbkit bridge tools list: %v\n%s", err, out)
	}
	for _, name := range []string{"drop", "status", "up", "rollback", "new"} {
		if !strings.Contains(string(out), name) {
			t.Errorf("tools list lacks %s:\n%s", name, out)
		}
	}
}
