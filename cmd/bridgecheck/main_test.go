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

	"github.com/cmdbridge/cmdbridge/codegen/bridgecheck"
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

	out, code := runIn(t, bin, "-legacy=**/adapter/internal/hazard", "./adapter/internal/hazard")
	assert.NotEqual(t, 0, code, "findings make standalone mode fail: %s", out)
	assert.ElementsMatch(t, wantRules, lines(out), out)

	vetOut, code := runIn(t, "go", "vet", "-vettool="+bin, "-legacy=**/adapter/internal/hazard", "./adapter/internal/hazard")
	assert.NotEqual(t, 0, code, "findings make go vet fail: %s", vetOut)
	assert.Equal(t, diagnostics(out), diagnostics(vetOut), "both modes report the same positions")

	clean, code := runIn(t, "go", "vet", "-vettool="+bin, "./adapter/internal/hazard")
	assert.Equal(t, 0, code, "hazard is not a legacy package by default: %s", clean)
	assert.Empty(t, diagnostics(clean))
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
	code, _ = tiersMain([]string{"-tiers=-", "-legacy", "**/adapter/internal/hazard", root + "/adapter/internal/hazard"}, &stdout, &stderr)
	t.Cleanup(func() { _ = bridgecheck.Analyzer.Flags.Set("legacy", bridgecheck.DefaultLegacy) })
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), `"swallow": {
      "tier": "subprocess",
      "findings": [
        "recover adapter/internal/hazard/hazard.go: recover()"
      ]`)
}
