package parity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// The fixture is config:get, a legacy command written the way the programs cmdbridge
// serves are (a cli.App constructor, a main on os.Args, an envelope on --json, exits
// through cli.Exit): it prints a workspace.yaml value by dotted key. Its program, for
// the subprocess lane, is this test binary run under the name fxProgram (TestMain), as a
// multi-call program (`fxprog config:get --key id --json`).

// fxProgram is the name the fixture's program runs under.
const fxProgram = "fxprog"

func newConfigGetApp() *cli.App {
	return &cli.App{
		Name:  "config:get",
		Usage: "Print a workspace.yaml value by dotted key",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "key", Usage: "dotted path from the root of workspace.yaml", Required: true},
			&cli.BoolFlag{Name: "json", Usage: "print the JSON envelope"},
		},
		Metadata: map[string]any{legacy.MetaReadOnly: true, legacy.MetaIdempotent: true, legacy.MetaNoArgs: true},
		Action: func(c *cli.Context) error {
			data, err := configValue(c.String("key"))
			if err != nil {
				if c.Bool("json") {
					printEnvelope(nil, map[string]any{"code": "COMMAND_FAILED", "message": err.Error(), "details": nil})
				}
				return cli.Exit("[config:get] "+err.Error(), 1)
			}
			if c.Bool("json") {
				printEnvelope(data, nil)
				return nil
			}
			fmt.Println(data["value"])
			return nil
		},
	}
}

// configValue reads key (dotted) of ./workspace.yaml: {key, set, value}.
func configValue(key string) (map[string]any, error) {
	b, err := os.ReadFile("workspace.yaml")
	if err != nil {
		return nil, err
	}
	var doc any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	v, set := doc, true
	for _, seg := range strings.Split(key, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			v, set = nil, false
			break
		}
		if v, ok = m[seg]; !ok {
			v, set = nil, false
			break
		}
	}
	return map[string]any{"key": key, "set": set, "value": v}, nil
}

func printEnvelope(data any, errObj any) {
	b, _ := json.Marshal(map[string]any{"ok": errObj == nil, "command": "config:get", "data": data, "error": errObj, "warnings": []string{}})
	fmt.Println(string(b))
}

// fxMain runs the fixture command on os.Args, as its program's main does.
func fxMain(ctx context.Context) {
	if err := newConfigGetApp().RunContext(ctx, os.Args); err != nil {
		cli.OsExiter(1) // an error that is no cli.Exit (a missing flag)
	}
}

// fxCommands is the fixture's legacy registry: config:get, analysed by hand
// (in-process: it touches one file), so the adapter lane runs it in the process even
// when a binary is configured.
func fxCommands(t testing.TB) *legacy.Registry {
	t.Helper()
	r := legacy.NewRegistry()
	require.NoError(t, r.Add(legacy.Command{Name: "config:get", New: newConfigGetApp, Main: fxMain, Tier: legacy.TierInProcess}))
	return r
}

// fxProgramMain is the fixture's program: `fxprog config:get argv...`.
func fxProgramMain() {
	if len(os.Args) < 2 || os.Args[1] != "config:get" {
		fmt.Fprintf(os.Stderr, "usage: %s config:get [argv...]\n", fxProgram)
		os.Exit(2)
	}
	os.Args = os.Args[1:]
	fxMain(context.Background())
	os.Exit(0)
}

// fxBin is the fixture's program: a link named fxProgram to this test binary, made by
// TestMain (withFxBin).
var fxBin string

// withFxBin runs the tests with fxBin made, and removes it afterwards.
type withFxBin struct{ m *testing.M }

func (w withFxBin) Run() int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "parity-fx-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	fxBin = filepath.Join(dir, fxProgram)
	if err := os.Symlink(exe, fxBin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return w.m.Run()
}
