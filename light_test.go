package cmdbridge_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// The one added line must cost the adopter's program nothing it can notice: its ordinary
// runs link and initialise only what serving needs, never the developer tooling. The
// tests below pin the structure; BenchmarkOutsideStartup measures the cost.

// developerTooling are packages an adopter's program must not link: the script runner
// (and with it the testing package), code generation and source loading, and the
// developer commands that use them.
var developerTooling = []string{
	"testing",
	"github.com/rogpeppe/go-internal/testscript",
	"github.com/dave/jennifer/jen",
	"golang.org/x/tools/go/packages",
	"github.com/cmdbridge/cmdbridge/parity",
	"github.com/cmdbridge/cmdbridge/codegen/scaffold",
	"github.com/cmdbridge/cmdbridge/surface/cli/devcli",
}

// deps is `go list -deps` of the packages pattern in dir.
func deps(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	require.NoError(t, err, "go list -deps %s", strings.Join(args, " "))
	return strings.Fields(string(out))
}

// servingStack are packages the light line must not link either: the kernel, the
// surfaces and what they bring (net/http, the MCP SDK, nats.go, schemas, YAML).
var servingStack = []string{
	"net/http",
	"encoding/gob",
	"github.com/cmdbridge/cmdbridge/host",
	"github.com/cmdbridge/cmdbridge/kernel",
	"github.com/cmdbridge/cmdbridge/adapter",
	"github.com/cmdbridge/cmdbridge/tool",
	"github.com/cmdbridge/cmdbridge/tool/legacy",
	"github.com/cmdbridge/cmdbridge/surface/cli",
	"github.com/modelcontextprotocol/go-sdk/mcp",
	"github.com/nats-io/nats.go",
	"github.com/google/jsonschema-go/jsonschema",
	"go.yaml.in/yaml/v3",
	"github.com/bmatcuk/doublestar/v4",
}

// TestAdoptionLinksNoDeveloperTooling checks what the one line (this package's Command)
// links: none of the developer tooling and none of the serving stack, only urfave/cli,
// the standard library and this module's light packages; the in-process line (package
// host) links the serving stack but no developer tooling, nor the migration report
// (status: parity/status, html/template, go/parser); the toolkit's own binary, which
// adds surface/cli/devcli's commands, surface/cli/statuscmd's and
// surface/cli/conductor's, has parity, scaffold, status and the control plane.
func TestAdoptionLinksNoDeveloperTooling(t *testing.T) {
	root := deps(t, ".", ".")
	for _, p := range append(slices.Clone(developerTooling), servingStack...) {
		assert.NotContains(t, root, p, "the adopter's program would link %s", p)
	}
	for _, p := range root {
		if strings.Contains(p, ".") && !strings.HasPrefix(p, "github.com/cmdbridge/cmdbridge") && !strings.HasPrefix(p, "vendor/") {
			assert.Contains(t, []string{"github.com/urfave/cli/v2", "github.com/russross/blackfriday/v2",
				"github.com/cpuguy83/go-md2man/v2/md2man", "github.com/xrash/smetrics"}, p, "the light line links only urfave/cli and its own dependencies")
		}
	}
	inProcess := deps(t, ".", "./host")
	for _, p := range developerTooling {
		assert.NotContains(t, inProcess, p, "host.Command would link %s", p)
	}
	assert.Contains(t, inProcess, "github.com/cmdbridge/cmdbridge/kernel")
	assert.NotContains(t, inProcess, "github.com/cmdbridge/cmdbridge/surface/cli/conductor", "an adopter's bridge serves; the control plane is not in it")
	for _, p := range []string{"github.com/cmdbridge/cmdbridge/surface/cli/statuscmd", "github.com/cmdbridge/cmdbridge/parity/status", "html/template", "go/parser"} {
		assert.NotContains(t, inProcess, p, "an adopter's bridge serves; the migration report (status) is not in it")
	}
	tool := deps(t, ".", "./cmd/cmdbridge")
	for _, p := range []string{"github.com/cmdbridge/cmdbridge/surface/cli/devcli", "github.com/cmdbridge/cmdbridge/surface/cli/conductor", "github.com/cmdbridge/cmdbridge/parity",
		"github.com/cmdbridge/cmdbridge/surface/cli/statuscmd", "github.com/cmdbridge/cmdbridge/parity/status",
		"github.com/cmdbridge/cmdbridge/codegen/scaffold"} {
		assert.Contains(t, tool, p, "cmd/cmdbridge keeps its developer commands")
	}
}

// TestOutsideDevCommandsNeedTheTag drives the adopted gizmo as its users get it: `bridge
// --help` lists no developer command, and asking for one says how to build it in. Built
// with the tag (the file cmd/gizmo/dev.go, as docs/adopt.md says), it has them.
func TestOutsideDevCommandsNeedTheTag(t *testing.T) {
	o := buildOutside(t)
	ws := t.TempDir()
	help := runIn(t, ws, "", o.gizmo, "bridge", "--help")
	require.Equal(t, 0, help.ExitCode, help.Stderr)
	assert.Contains(t, help.Stdout, "serve")
	for _, name := range []string{"parity", "scaffold"} {
		assert.NotRegexp(t, commandListed(name), help.Stdout, "bridge --help lists no developer command")
		r := runIn(t, ws, "", o.gizmo, "bridge", name)
		assert.Equal(t, 2, r.ExitCode, "%+v", r)
		for _, want := range []string{name + " is a developer command", "//go:build cmdbridge_dev",
			`import "github.com/cmdbridge/cmdbridge/surface/cli/devcli"`, "func init() { devcli.Enable() }", "go run -tags cmdbridge_dev . bridge " + name} {
			assert.Contains(t, r.Stderr, want)
		}
	}

	// status names the command that runs parity for this build: the tagged build's.
	st := runIn(t, ws, "", o.gizmo, "bridge", "--workspace", ws, "status")
	require.Equal(t, 0, st.ExitCode, st.Stderr)
	assert.Contains(t, st.Stdout, "(run go run -tags cmdbridge_dev . bridge parity)")
	st = runIn(t, ws, "", o.tools, "--workspace", ws, "status")
	require.Equal(t, 0, st.ExitCode, st.Stderr)
	assert.Contains(t, st.Stdout, "(run gizmo-tools parity)", "a tools binary with the developer commands names its own")

	dev := filepath.Join(t.TempDir(), "gizmo")
	build := exec.Command("go", "build", "-ldflags=-w", "-tags", "cmdbridge_dev", "-o", dev, "./cmd/gizmo") // -w: no DWARF (nothing debugs the programs), a third off the link
	build.Dir = o.dir
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	help = runIn(t, ws, "", dev, "bridge", "--help")
	require.Equal(t, 0, help.ExitCode, help.Stderr)
	for _, name := range []string{"parity", "scaffold"} {
		assert.Regexp(t, commandListed(name), help.Stdout, "the tagged build has the developer commands")
	}
	r := runIn(t, ws, "", dev, "bridge", "scaffold")
	assert.Equal(t, 2, r.ExitCode)
	assert.Contains(t, r.Stderr, "scaffold takes at least one command name", "the real scaffold answered")
}

// TestLightLineMatchesTheInProcessLine: dbkit adopted with the light line (served by the
// cmdbridge host from dbkit's manifest) and with host.Command (derived in dbkit's own
// process), with the same Config, serve the same tools: tool list and whole manifest
// (schemas, annotations, governance, warnings), but for the reason each tier gives.
func TestLightLineMatchesTheInProcessLine(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	light := outsidetest.Build(t, "dbkit-effects", outsidetest.DBKit(root, dbkitEffects)).Exe("dbkit")
	inProcess := outsidetest.Build(t, "dbkit-effects-host",
		outsidetest.DBKitHost(root, "&host.Config{Config: *"+dbkitEffects+"}")).Exe("dbkit")
	ws := t.TempDir()
	for _, args := range [][]string{{"tools", "list", "--json"}, {"tools", "manifest"}} {
		want := runIn(t, ws, "", inProcess, append([]string{"bridge", "--workspace", ws}, args...)...)
		require.Equal(t, 0, want.ExitCode, want.Stderr)
		got := runIn(t, ws, "", light, append([]string{"bridge", "--workspace", ws}, args...)...)
		require.Equal(t, 0, got.ExitCode, got.Stderr)
		assert.JSONEq(t, want.Stdout, got.Stdout, "%v", args)
		assert.Contains(t, want.Stdout, `"status"`)
	}
	require.NoError(t, os.WriteFile(filepath.Join(ws, "db.txt"), []byte("0001_init.sql\n"), 0o644))
	call := runIn(t, ws, "", light, "bridge", "--workspace", ws, "call", "status", "--input", `{"url":"file:db.txt","migrations_dir":"none"}`)
	assert.Contains(t, call.Stdout, `"lane": "subprocess"`, "the light line's calls run dbkit: %+v", call)
}

// TestLightLineKeepsSecretsOut: dbkit's DATABASE_URL, set in the environment and in a
// .env file of the directory the bridge runs in, reaches no schema default of the tools
// the host serves (the manifest is read with a minimal environment in an empty
// directory), while a call still runs dbkit with the caller's environment.
func TestLightLineKeepsSecretsOut(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	exe := outsidetest.Build(t, "dbkit-effects", outsidetest.DBKit(root, dbkitEffects)).Exe("dbkit")
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".env"), []byte("DBKIT_MIGRATIONS_DIR=s3cret-dir\n"), 0o644))
	cmd := exec.Command(exe, "bridge", "--workspace", ws, "tools", "manifest")
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "DATABASE_URL=postgres://admin:s3cret@db/prod")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), `"url"`, "the global flag is a property")
	assert.NotContains(t, string(out), "s3cret", "no secret of the environment or .env becomes a default")

	// A program built with the line, and no host: the message says how to install it.
	cmd = exec.Command(exe, "bridge", "tools", "list")
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "CMDBRIDGE_HOST=") }), "PATH="+t.TempDir())
	out, err = cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, string(out), "needs the cmdbridge host, which is not installed")
	assert.Contains(t, string(out), "go install github.com/cmdbridge/cmdbridge/cmd/cmdbridge@")
	assert.Contains(t, string(out), "CMDBRIDGE_HOST")
}

// commandListed matches name as a command of a help text's COMMANDS section.
func commandListed(name string) *regexp.Regexp { return regexp.MustCompile(`(?m)^\s+` + name + `\s`) }

// BenchmarkOutsideStartup measures what adopting costs an outside program's ordinary runs:
// each iteration starts the program as its authors ship it (gizmo's cmd/gizmo-plain;
// dbkit unchanged) and adopted with the one line (cmd/gizmo; dbkit with
// cmdbridge.Command(nil)), in alternating order, with the same arguments. Reported: the
// median wall-clock and CPU (user+system) time of one start of each, their ratios, and
// both binaries' sizes. The bar: ratio within 1.10, size within +8 MB. ns/op is
// the pair.
func BenchmarkOutsideStartup(b *testing.B) {
	root, err := filepath.Abs(".")
	require.NoError(b, err)
	o := buildOutside(b)
	dbkit := outsidetest.Build(b, "dbkit", outsidetest.DBKit(root, "nil")).Exe("dbkit")
	dbkitPlain := outsidetest.Build(b, "dbkit-plain", outsidetest.DBKitPlain(root)).Exe("dbkit")
	ws := b.TempDir()
	for _, tc := range []struct {
		name           string
		plain, adopted string
		args           []string
	}{
		{"gizmo-help", filepath.Join(o.bin, "gizmo-plain"), o.gizmo, []string{"--help"}},
		{"gizmo-notes-list", filepath.Join(o.bin, "gizmo-plain"), o.gizmo, []string{"notes", "list"}},
		{"dbkit-help", dbkitPlain, dbkit, []string{"--help"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var wall, cpu [2][]time.Duration
			bins := [2]string{tc.plain, tc.adopted}
			i := 0
			for b.Loop() {
				for k := range 2 {
					j := (i + k) % 2 // alternate which starts first
					cmd := exec.Command(bins[j], tc.args...)
					cmd.Dir = ws
					start := time.Now()
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("%s %s: %v\n%s", bins[j], strings.Join(tc.args, " "), err, out)
					}
					wall[j] = append(wall[j], time.Since(start))
					cpu[j] = append(cpu[j], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
				}
				i++
			}
			pw, aw, pc, ac := median(wall[0]), median(wall[1]), median(cpu[0]), median(cpu[1])
			b.ReportMetric(float64(pw), "plain-ns")
			b.ReportMetric(float64(aw), "adopted-ns")
			b.ReportMetric(float64(aw)/float64(pw), "ratio")
			b.ReportMetric(float64(pc), "plain-cpu-ns")
			b.ReportMetric(float64(ac), "adopted-cpu-ns")
			b.ReportMetric(float64(ac)/float64(pc), "cpu-ratio")
			b.ReportMetric(float64(size(b, tc.plain)), "plain-bytes")
			b.ReportMetric(float64(size(b, tc.adopted)), "adopted-bytes")
		})
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func size(b *testing.B, path string) int64 {
	st, err := os.Stat(path)
	require.NoError(b, err)
	return st.Size()
}
