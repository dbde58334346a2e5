package scaffold_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/codegen/scaffold"
	"github.com/cmdbridge/cmdbridge/internal/golden"
	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/testdata/codegen/gizmo"
	"github.com/cmdbridge/cmdbridge/testdata/codegen/gizmo/tools"
	notes "github.com/cmdbridge/cmdbridge/testdata/codegen/golden-gizmo/nativetools/notes"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
	// The golden output of the generator for notes:add, compiled as a real package: it
	// registers the skeleton in tools.Registry.
)

// TestMain lets the test binary run as the gizmo program under that name, for the
// subprocess lane of parity.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "gizmo" {
		if err := gizmo.NewApp().Run(os.Args); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// gizmoConfig scaffolds from the gizmo program by discovery: no patterns, no registry
// named; Dir is where discovery starts (go's ./... skips testdata from the module
// root).
func gizmoConfig(t *testing.T, root, scripts string) scaffold.Config {
	return scaffold.Config{
		Root:     root,
		Dir:      filepath.Join(moduleRoot(t), "testdata", "codegen", "gizmo"),
		Commands: gizmo.Commands,
		Scripts:  scripts,
	}
}

func TestGoldenGizmo(t *testing.T) {
	mod := moduleRoot(t)
	dir := filepath.Join(mod, "testdata", "codegen", "golden-gizmo")
	files, err := scaffold.Plan(context.Background(),
		gizmoConfig(t, dir, filepath.Join(mod, "testdata", "codegen", "gizmo", "script")), "notes:add")
	require.NoError(t, err)
	if golden.Update() {
		_, err := scaffold.Write(dir, files, true)
		require.NoError(t, err)
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f.Path))
		require.NoError(t, err, "golden %s missing: run go test -run TestGoldenGizmo -update", f.Path)
		assert.Equal(t, string(want), string(f.Content), "golden %s differs: run go test -run TestGoldenGizmo -update", f.Path)
	}
}

// corpusMarks are strings of the cmdbridge corpus that must never reach an adopter's
// generated files.
var corpusMarks = []string{"acme", "delivery", "workspace.yaml",
	`"github.com/cmdbridge/cmdbridge/commands`, `"github.com/cmdbridge/cmdbridge/nativetools"`,
	`"github.com/cmdbridge/cmdbridge/nativetools/`, "nativetools.Default", "nativetools.Register"}

// TestGizmoScaffoldsByDiscovery scaffolds a command-tree leaf found only by discovery
// (AddApp in an init, the leaf declared by a constructor of its own, the native registry
// found as the one *native.Registry variable), with no script to seed from, into a
// folder inside the module; the files hold no corpus data, vet clean and their own
// tests pass.
func TestGizmoScaffoldsByDiscovery(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the go command")
	}
	mod := moduleRoot(t)
	require.NoError(t, os.MkdirAll("testdata", 0o755))
	root, err := os.MkdirTemp("testdata", "gizmo-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	root, err = filepath.Abs(root)
	require.NoError(t, err)

	// misc:echo is registered at run time under a computed name: no source shows it.
	reg := legacy.NewRegistry()
	require.NoError(t, reg.AddApp(gizmo.NewApp, legacy.TreeOptions{}))
	echo := "misc:" + strings.ToLower("ECHO")
	require.NoError(t, reg.Add(legacy.Command{Name: echo, Domain: "misc", Main: func(context.Context) {},
		New: func() *cli.App {
			return &cli.App{Name: echo, Usage: "say it", Flags: []cli.Flag{&cli.StringFlag{Name: "word", Required: true}}}
		}}))

	var log bytes.Buffer
	cfg := gizmoConfig(t, root, t.TempDir())
	cfg.Commands, cfg.Log = reg, &log
	files, err := scaffold.Plan(context.Background(), cfg, "notes:add", echo)
	require.NoError(t, err)
	assert.Equal(t, "scaffold misc:echo: registration not found in source; using the registry's runtime view (flags from the command's New)\n",
		log.String(), "notes:add is in source, misc:echo is not")
	byPath := map[string]string{}
	for _, f := range files {
		byPath[filepath.ToSlash(f.Path)] = string(f.Content)
		for _, mark := range corpusMarks {
			assert.NotContains(t, string(f.Content), mark, "%s holds corpus data", f.Path)
		}
	}
	src := byPath["nativetools/notes/notes_add.go"]
	assert.Contains(t, src, "if err := tools.Registry.Add(native.New(tool.Spec{")
	assert.Contains(t, src, "from `gizmo notes add`, a leaf of NewApp's tree (testdata/codegen/gizmo/gizmo.go)")
	assert.Contains(t, byPath["nativetools/notes/notes_add_test.go"], `gizmo.Commands.Lookup("notes:add")`)
	assert.Contains(t, byPath["testdata/script/parity/notes_add.txtar"], `parity notes:add '{"output":"x-output","text":"x-text"}'`)
	assert.Contains(t, byPath["nativetools/all/all.go"], "in tools.Registry by importing it")
	assert.Contains(t, byPath["nativetools/misc/misc_echo.go"], "from the command registry's runtime view")
	assert.Contains(t, byPath["nativetools/misc/misc_echo_test.go"], "wantJSON := []byte(`{")
	assert.Contains(t, byPath["testdata/script/parity/misc_echo.txtar"], `parity misc:echo '{"word":"x-word"}'`)

	_, err = scaffold.Write(root, files, false)
	require.NoError(t, err)
	rel, err := filepath.Rel(mod, root)
	require.NoError(t, err)
	pkgs := "./" + filepath.ToSlash(rel) + "/..."
	for _, args := range [][]string{{"vet", pkgs}, {"test", "-count=1", pkgs}} {
		out, err := goCmd(t, mod, args...)
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
	}
}

// gizmoParity runs one notes:add call on every lane: the subprocess lane runs this test
// binary under the name gizmo.
func gizmoParity(t *testing.T, reg *native.Registry, input string) *parity.Report {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	bin := filepath.Join(t.TempDir(), "gizmo")
	require.NoError(t, os.Symlink(exe, bin))
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("first\n"), 0o644))
	rep, err := parity.Run(context.Background(), "notes:add", json.RawMessage(input), parity.Config{
		Workspace: ws, Commands: gizmo.Commands, Native: reg, Binary: bin, Scratch: t.TempDir(),
	})
	require.NoError(t, err)
	require.Equal(t, []string{parity.LaneSubprocess, parity.LaneAdapter, parity.LaneNative}, rep.Lanes)
	return rep
}

// TestGizmoSkeletonFailsParity: the scaffolded notes:add answers NOT_IMPLEMENTED, so
// parity of the plain command fails until the handler is written.
func TestGizmoSkeletonFailsParity(t *testing.T) {
	rep := gizmoParity(t, tools.Registry, `{"output":"notes.txt","text":"buy milk"}`)
	assert.True(t, rep.Results[0].Output.Success, "subprocess lane: %+v", rep.Results[0].Output)
	assert.False(t, rep.OK(), "parity must fail while the handler is a skeleton")
	assert.Contains(t, rep.String(), "NOT_IMPLEMENTED")
	assert.Contains(t, rep.String(), "notes.txt", "the file the skeleton did not write")
}

// addNote is a native notes:add on the scaffolded Input; wrong, when set, changes what
// it prints.
func addNote(stderr string) func(context.Context, *tool.Env, notes.AddInput) tool.Output {
	return func(_ context.Context, env *tool.Env, in notes.AddInput) tool.Output {
		note := in.Text
		if in.Upper {
			note = strings.ToUpper(note)
		}
		f, err := os.OpenFile(filepath.Join(env.Dir, in.Output), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return tool.Fail(tool.CodeCommandFailed, "%v", err)
		}
		defer f.Close()
		if _, err := fmt.Fprintln(f, note); err != nil {
			return tool.Fail(tool.CodeCommandFailed, "%v", err)
		}
		return tool.OK(map[string]any{
			"stdout":    fmt.Sprintf("added %q to %s\n", note, in.Output),
			"stderr":    fmt.Sprintf(stderr, len(note)+1),
			"exit_code": 0,
		})
	}
}

func gizmoNative(t *testing.T, stderr string) *native.Registry {
	reg := native.NewRegistry()
	skeleton, ok := tools.Registry.Lookup("notes:add")
	require.True(t, ok)
	require.NoError(t, reg.Add(native.New(skeleton.Spec, addNote(stderr))))
	return reg
}

// TestGizmoHandlerPassesParity: with a correct handler the plain command agrees on
// every lane (stdout, stderr, exit code and the file tree); a handler whose stderr
// differs by one character fails, naming stderr.
func TestGizmoHandlerPassesParity(t *testing.T) {
	rep := gizmoParity(t, gizmoNative(t, "gizmo: %d bytes\n"), `{"output":"notes.txt","text":"buy milk","upper":true}`)
	assert.True(t, rep.OK(), rep.String())

	rep = gizmoParity(t, gizmoNative(t, "gizmo: %d byte\n"), `{"output":"notes.txt","text":"buy milk"}`)
	assert.False(t, rep.OK())
	assert.Contains(t, rep.String(), "subprocess/native stream stderr")
}

// TestLocateEveryRegistrationShape: a legacy.Command literal is found wherever it is
// (handed to a method, to a local helper, through a variable, in a table), with the
// registry its registration reaches when the source shows it; a computed name is not.
func TestLocateEveryRegistrationShape(t *testing.T) {
	dir := filepath.Join(moduleRoot(t), "testdata", "codegen", "shapes")
	locs, err := scaffold.Locate(context.Background(), dir, "./...")
	require.NoError(t, err)
	reg := scaffold.Qual{Path: "github.com/cmdbridge/cmdbridge/testdata/codegen/shapes", Pkg: "shapes", Name: "Registry"}
	got := map[string]scaffold.Located{}
	for _, l := range locs {
		got[l.Name] = l
	}
	for name, want := range map[string]struct {
		constructor string
		registry    scaffold.Qual
	}{
		"shape:direct": {"newDirectApp", reg},
		"shape:helper": {"newHelperApp", reg},
		"shape:var":    {"newVarApp", reg},
		"shape:table":  {"newTableApp", scaffold.Qual{}}, // Plan falls back to the one registry declared
	} {
		l, ok := got[name]
		if !assert.True(t, ok, "%s not located", name) {
			continue
		}
		assert.Equal(t, "shape", l.Domain, name)
		assert.Equal(t, want.constructor, l.Constructor, name)
		assert.Equal(t, want.registry, l.Registry, name)
		assert.Equal(t, "shapes", l.PkgName, name)
	}
	assert.Len(t, locs, 4, "the computed name is not a constant")
}
