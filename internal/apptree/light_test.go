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
	const spec = "github.com/cmdbridge/cmdbridge/internal/appspec" // the description's types
	for _, d := range deps {
		if d == self || d == spec {
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

	// Its own imports are the standard library, urfave/cli and appspec only.
	out, err = exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, self).CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, imp := range strings.Fields(string(out)) {
		if imp != "github.com/urfave/cli/v2" && imp != spec && strings.Contains(strings.Split(imp, "/")[0], ".") {
			t.Errorf("apptree imports %s", imp)
		}
	}
}

// TestSpecImportsTheStandardLibraryOnly: appspec is what a program of any framework
// links to describe itself (package cobrabridge), so it must not bring urfave/cli.
func TestSpecImportsTheStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/cmdbridge/cmdbridge/internal/appspec").CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, d := range strings.Fields(string(out)) {
		if d != "github.com/cmdbridge/cmdbridge/internal/appspec" && strings.Contains(strings.Split(d, "/")[0], ".") {
			t.Errorf("appspec depends on %s", d)
		}
	}
}
