package apptree

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLight keeps the package light: adopted programs link it, so it must not
// pull in the rest of cmdbridge or its heavier dependencies.
func TestLight(t *testing.T) {
	const self = "github.com/cmdbridge/cmdbridge/internal/apptree"
	out, err := exec.Command("go", "list", "-deps", self).CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, self)
	require.Contains(t, deps, "github.com/urfave/cli/v2")
	for _, d := range deps {
		if d == self {
			continue
		}
		for _, banned := range []string{
			"github.com/cmdbridge/cmdbridge",
			"github.com/google/jsonschema-go",
			"go.yaml.in/yaml/v3",
			"github.com/bmatcuk/doublestar",
		} {
			if d == banned || strings.HasPrefix(d, banned+"/") {
				t.Errorf("apptree depends on %s", d)
			}
		}
	}

	// Its own imports are the standard library and urfave/cli only.
	out, err = exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, self).CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, imp := range strings.Fields(string(out)) {
		if imp != "github.com/urfave/cli/v2" && strings.Contains(strings.Split(imp, "/")[0], ".") {
			t.Errorf("apptree imports %s", imp)
		}
	}
}
