package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
)

const root = "../.."

// build compiles bridgecheck once per test into a temp dir.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bridgecheck")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// runIn runs a command in the module root and returns its combined output and exit code.
func runIn(t *testing.T, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	require.NoError(t, err, "%s", out)
	return string(out), 0
}

var diagLine = regexp.MustCompile(`(?m)hazard\.go:\d+:\d+: \[[a-z-]+\] [^:\n]+`)

func diagnostics(out string) []string {
	got := diagLine.FindAllString(out, -1)
	sort.Strings(got)
	return got
}

// The same binary works standalone and as a go vet tool, and both report the same
// findings.
func TestStandaloneAndVetToolAgree(t *testing.T) {
	bin := build(t)
	wantRules := []string{
		"[chdir] os.Chdir",
		"[global-stream] var initLogger (bound to os.Stderr)",
		"[go-in-action] go statement",
		"[go-in-action] go statement",
		"[recover] recover()",
	}
	lines := func(out string) []string {
		var rules []string
		for _, d := range diagnostics(out) {
			rules = append(rules, d[strings.Index(d, "["):])
		}
		return rules
	}

	// hazard registers commands: it is found without -legacy.
	out, code := runIn(t, bin, "./adapter/internal/hazard")
	assert.Equal(t, 3, code, "findings make standalone mode fail: %s", out)
	assert.ElementsMatch(t, wantRules, lines(out), out)

	vetOut, code := runIn(t, "go", "vet", "-vettool="+bin, "./adapter/internal/hazard")
	assert.NotEqual(t, 0, code, "findings make go vet fail: %s", vetOut)
	assert.Equal(t, diagnostics(out), diagnostics(vetOut), "both modes report the same positions")

	// -legacy replaces the detection, in both modes.
	clean, code := runIn(t, "go", "vet", "-vettool="+bin, "-legacy=**/no/such/pattern", "./adapter/internal/hazard")
	assert.Equal(t, 0, code, "-legacy names other packages: %s", clean)
	assert.Empty(t, diagnostics(clean))
	out, code = runIn(t, bin, "-legacy", "**/no/such/pattern", "./adapter/internal/hazard")
	assert.Equal(t, 0, code, out)
	assert.Empty(t, diagnostics(out))
}

// A run over packages that register no command and are no native tools says so, and
// succeeds; a run over native tools alone checks them quietly.
func TestStandaloneSaysWhenNothingWasChecked(t *testing.T) {
	var stderr bytes.Buffer
	code := checkMain([]string{root + "/tool/..."}, &stderr)
	assert.Equal(t, 0, code)
	assert.Equal(t, "bridgecheck: no legacy command packages (none registers a command) and no native tool packages found in "+
		root+"/tool/...; nothing checked\n", stderr.String())

	stderr.Reset()
	code = checkMain([]string{root + "/nativetools/..."}, &stderr)
	assert.Equal(t, 0, code, stderr.String())
	assert.Empty(t, stderr.String(), "the native tools are clean and were checked")

	stderr.Reset()
	assert.Equal(t, 2, checkMain(nil, &stderr))
	assert.Contains(t, stderr.String(), "usage: bridgecheck")
	assert.Equal(t, 1, checkMain([]string{root + "/no/such/package"}, &stderr))
}

func TestDriverModeTakesVetAndDriverFlags(t *testing.T) {
	tests := []struct {
		args   []string
		driver bool
	}{
		{[]string{"./..."}, false},
		{[]string{"-legacy", "**/x", "./..."}, false},
		{[]string{"-legacy=**/x", "-native=**/y", "./..."}, false},
		{[]string{}, true},
		{[]string{"help"}, true},
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"-fix", "./..."}, true},
		{[]string{"-exitcall.legacy", "x", "unit.cfg"}, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.driver, driverMode(tt.args), "%q", tt.args)
	}
}

func TestTiersMode(t *testing.T) {
	var stdout, stderr bytes.Buffer
	_, ok := tiersMain([]string{"./..."}, &stdout, &stderr)
	assert.False(t, ok, "without -tiers the analyzer driver takes the arguments")

	code, ok := tiersMain([]string{"-tiers"}, &stdout, &stderr)
	assert.True(t, ok)
	assert.Equal(t, 2, code)

	stderr.Reset()
	code, ok = tiersMain([]string{"-tiers", "-"}, &stdout, &stderr)
	assert.True(t, ok)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr.String(), "usage: bridgecheck -tiers FILE")

	stdout.Reset()
	code, _ = tiersMain([]string{"-tiers=-", root + "/adapter/internal/hazard"}, &stdout, &stderr)
	t.Cleanup(func() { _ = bridgecheck.Scope.Flags.Set("legacy", "") })
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), `"swallow": {
      "tier": "subprocess",
      "findings": [
        "recover adapter/internal/hazard/hazard.go: recover()"
      ]`)
}
