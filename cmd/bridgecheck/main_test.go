package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

const root = "../.."

// TestMain gives the shared builds a directory that ends with the test binary.
func TestMain(m *testing.M) { os.Exit(outsidetest.M(m).Run()) }

// build compiles bridgecheck once per run (outsidetest.Bridgecheck: the root package's
// tests run the same build).
func build(t *testing.T) string {
	t.Helper()
	return outsidetest.Bridgecheck(t, outsidetest.RepoRoot(t))
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
	out, code = runIn(t, bin, "./adapter/internal/hazard", "-legacy", "**/no/such/pattern")
	assert.Equal(t, 2, code, "nothing was checked: %s", out)
	assert.Empty(t, diagnostics(out))
}

// A run over packages that register no command, build no app and are no native tools
// says what to pass and fails; a run over native tools alone checks them quietly.
func TestStandaloneSaysWhenNothingWasChecked(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := standalone([]string{root + "/tool/..."}, &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr.String(), "nothing was checked; pass your program's packages (./... in its module) or -legacy PATTERNS")

	stderr.Reset()
	code = standalone([]string{root + "/nativetools/..."}, &stdout, &stderr)
	assert.Equal(t, 0, code, stderr.String())
	assert.Empty(t, stderr.String(), "the native tools are clean and were checked")

	stderr.Reset()
	assert.Equal(t, 1, standalone([]string{root + "/no/such/package"}, &stdout, &stderr))
}

// -h lists every flag, the standalone checker's and the driver's; no arguments is a
// usage error that prints the same.
func TestHelpListsEveryFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, standalone([]string{"-h"}, &stdout, &stderr))
	for _, flag := range []string{"-tiers FILE", "-legacy PATTERNS", "-native PATTERNS", "-fix", "-diff", "-json", "-c N", "-test=false", "-V=full, -flags"} {
		assert.Contains(t, stderr.String(), "  "+flag, "-h lists %s", flag)
	}
	help := stderr.String()
	stderr.Reset()
	assert.Equal(t, 2, standalone(nil, &stdout, &stderr))
	assert.Equal(t, help, stderr.String())
}

func TestDriverModeTakesVetAndDriverFlags(t *testing.T) {
	tests := []struct {
		args   []string
		driver bool
	}{
		{[]string{"./..."}, false},
		{[]string{}, false},
		{[]string{"-h"}, false},
		{[]string{"-legacy", "**/x", "./..."}, false},
		{[]string{"./...", "-legacy=**/x", "-native=**/y"}, false},
		{[]string{"./...", "-tiers", "t.json"}, false},
		{[]string{"--tiers=t.json", "./..."}, false},
		{[]string{"help"}, true},
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"-fix", "./..."}, true},
		{[]string{"./...", "-json"}, true},
		{[]string{"-exitcall.legacy", "x", "unit.cfg"}, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.driver, driverMode(tt.args), "%q", tt.args)
	}
}

// -tiers writes the table wherever it comes on the command line; with nothing to tier
// it writes nothing, says so and fails.
func TestTiersMode(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := standalone([]string{root + "/adapter/internal/hazard", "-tiers=-"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), `"swallow": {
      "tier": "subprocess",
      "findings": [
        "recover adapter/internal/hazard/hazard.go: recover()"
      ]`)

	stdout.Reset()
	code = standalone([]string{"-tiers", "-", root + "/tool/..."}, &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout.String(), "no empty table")
	assert.Contains(t, stderr.String(), "bridgecheck: -tiers: "+root+"/tool/... holds no urfave/cli program")

	stderr.Reset()
	assert.Equal(t, 2, standalone([]string{"-tiers"}, &stdout, &stderr))
}

// dbkit (testdata/dbkit) is a migration tool whose commands live in package main: found
// without flags, wait's os.Exit is reported at its position, main's own os.Exit is no
// command hazard (the in-process lane never runs main), and what main does around
// app.Run (.env loading, "Error: …", exit 2) is reported as skipped in-process. Flags
// may follow the packages.
func TestDBKitProgramInPackageMain(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join(root, "testdata", "dbkit"))
	require.NoError(t, err)
	src, err := os.ReadFile(filepath.Join(dir, "main.go"))
	require.NoError(t, err)
	var waitExit, mainExit string
	for i, line := range strings.Split(string(src), "\n") {
		col := strings.Index(line, "os.Exit(")
		switch {
		case col < 0:
		case strings.Contains(line, "os.Exit(1)"):
			waitExit = fmt.Sprintf("main.go:%d:%d: [os-exit] os.Exit:", i+1, col+1)
		case strings.Contains(line, "os.Exit(2)"):
			mainExit = fmt.Sprintf("main.go:%d:", i+1)
		}
	}
	require.NotEmpty(t, waitExit)
	require.NotEmpty(t, mainExit)

	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := standalone([]string{"./...", "-native", bridgecheck.DefaultNative}, &stdout, &stderr)
	out := stderr.String()
	assert.Equal(t, 3, code, out)
	assert.NotContains(t, out, "nothing was checked")
	assert.Contains(t, out, waitExit, "wait's os.Exit, at its position")
	assert.Equal(t, 1, strings.Count(out, "[os-exit]"), "main's os.Exit is no command hazard: %s", out)
	assert.NotContains(t, out, "[setenv]", "loadEnvFiles runs only in main")
	for _, logic := range []string{
		"[main-logic] loadEnvFiles(os.Args[1:]): main() runs it around app.Run, but the in-process lane runs your app without main()",
		`[main-logic] fmt.Fprintf(os.Stderr, "Error: %s\n", err):`,
		mainExit + "3: [main-logic] os.Exit(2):",
	} {
		assert.Contains(t, out, logic)
	}
	assert.Contains(t, out, "instead, do it in host.Config.Prepare")
}
