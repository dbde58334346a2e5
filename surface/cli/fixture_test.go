package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/require"
	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/adoptconfig"
	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// The fixture is a small program of the kind cmdbridge serves, so the command line's
// tests depend neither on the delivery corpus nor on its binary: doc:read and doc:write
// (a declared write path), legacy commands written the way such programs are (a cli.App
// constructor, a main on os.Args, an envelope on --json, exits through cli.Exit), each
// with a native twin; and native-only repo:status (read-only) and lock:clear (rules
// between its inputs). Its program, for the subprocess lane, is this test binary run
// under the name fxProgram (TestMain).

// fxProgram is the name the fixture's program runs under.
const fxProgram = "fxprog"

// fxBin is the fixture's program: a link named fxProgram to this test binary, made by
// TestMain.
var fxBin string

// fxVersion is the version the fixture host reports.
const fxVersion = "1.2.3"

func newDocReadApp() *ucli.App {
	return &ucli.App{
		Name:  "doc:read",
		Usage: "Print a file of the workspace, or some of its lines.",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "path", Usage: "the file to read, relative to the workspace", Required: true},
			&ucli.IntFlag{Name: "start-line", Usage: "first line to print (1-based)"},
			&ucli.IntFlag{Name: "end-line", Usage: "last line to print (1-based)"},
			&ucli.BoolFlag{Name: "json", Usage: "print the JSON envelope"},
		},
		Metadata: map[string]any{legacy.MetaReadOnly: true, legacy.MetaIdempotent: true, legacy.MetaNoArgs: true,
			legacy.MetaPaths: map[string]string{"path": "read"}},
		Action: docRead,
	}
}

func docRead(c *ucli.Context) error {
	content, err := readLines(c.String("path"), c.Int("start-line"), c.Int("end-line"))
	if err != nil {
		code := tool.CodeCommandFailed
		if errors.Is(err, fs.ErrNotExist) {
			code = tool.CodeNotFound
		}
		if c.Bool("json") {
			printEnvelope("doc:read", nil, map[string]any{"code": code, "message": err.Error(), "details": nil})
		}
		return ucli.Exit("[doc:read] "+err.Error(), 1)
	}
	if c.Bool("json") {
		printEnvelope("doc:read", docData(c.String("path"), content), nil)
		return nil
	}
	fmt.Print(content)
	return nil
}

// readLines reads lines start to end (1-based, inclusive; 0: from the first, to the
// last) of the file at path.
func readLines(path string, start, end int) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if start < 1 {
		start = 1
	}
	if end < 1 || end > len(lines) {
		end = len(lines)
	}
	if start > end {
		return "", nil
	}
	return strings.Join(lines[start-1:end], ""), nil
}

func newDocWriteApp() *ucli.App {
	return &ucli.App{
		Name:  "doc:write",
		Usage: "Write a file of the workspace.",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "path", Usage: "the file to write, relative to the workspace", Required: true},
			&ucli.StringFlag{Name: "content", Usage: "what the file holds afterwards", Required: true},
			&ucli.BoolFlag{Name: "json", Usage: "print the JSON envelope"},
		},
		Metadata: map[string]any{legacy.MetaDestructive: true, legacy.MetaNoArgs: true,
			legacy.MetaPaths: map[string]string{"path": "write"}},
		Action: func(c *ucli.Context) error {
			path, content := c.String("path"), c.String("content")
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				if c.Bool("json") {
					printEnvelope("doc:write", nil, map[string]any{"code": tool.CodeCommandFailed, "message": err.Error(), "details": nil})
				}
				return ucli.Exit("[doc:write] "+err.Error(), 1)
			}
			if c.Bool("json") {
				printEnvelope("doc:write", map[string]any{"path": path, "bytes": len(content)}, nil)
			}
			return nil
		},
	}
}

func docData(path, content string) map[string]any {
	return map[string]any{"path": path, "content": content}
}

func printEnvelope(command string, data any, errObj any) {
	b, _ := json.Marshal(map[string]any{"ok": errObj == nil, "command": command, "data": data, "error": errObj, "warnings": []string{}})
	fmt.Println(string(b))
}

func fxCommands() *legacy.Registry {
	r := legacy.NewRegistry()
	// Analysed by hand (each touches one file): in-process, so the adapter lane runs it
	// although a binary is configured.
	for _, c := range []struct {
		name string
		app  func() *ucli.App
	}{{"doc:read", newDocReadApp}, {"doc:write", newDocWriteApp}} {
		if err := r.Add(legacy.Command{Name: c.name, New: c.app, Tier: legacy.TierInProcess,
			Main: func(ctx context.Context) {
				if err := c.app().RunContext(ctx, os.Args); err != nil {
					fmt.Fprintf(os.Stderr, "[%s] usage: %v\n", c.name, err)
					ucli.OsExiter(2)
				}
			}}); err != nil {
			panic(err)
		}
	}
	return r
}

// runFxProgram is the fixture's program, `fxprog <command> argv...`: the named command's
// main on os.Args set to its name and argv, as in a process of its own.
func runFxProgram(ctx context.Context, words []string) int {
	if len(words) == 0 {
		fmt.Fprintln(os.Stderr, "usage: "+fxProgram+" <command> [argv...]")
		return 2
	}
	c, ok := fxCommands().Lookup(words[0])
	if !ok {
		fmt.Fprintf(os.Stderr, "%s: unknown command %q\n", fxProgram, words[0])
		return 2
	}
	os.Args = words
	c.Main(ctx)
	return 0
}

type docReadIn struct {
	Path      string `json:"path" jsonschema:"the file to read, relative to the workspace"`
	StartLine int64  `json:"start_line,omitempty" jsonschema:"first line to print (1-based)"`
	EndLine   int64  `json:"end_line,omitempty" jsonschema:"last line to print (1-based)"`
}

type docWriteIn struct {
	Path    string `json:"path" jsonschema:"the file to write, relative to the workspace"`
	Content string `json:"content" jsonschema:"what the file holds afterwards"`
}

// lockClearIn is lock:clear's input: list the locks, or clear one with a reason.
type lockClearIn struct {
	Lane   string `json:"lane,omitempty" jsonschema:"the lane whose lock to clear"`
	Reason string `json:"reason,omitempty" jsonschema:"why the lock is cleared"`
	List   bool   `json:"list,omitempty" jsonschema:"list every lock"`
}

// AdjustSchema adds the rules between properties a struct tag cannot carry.
func (lockClearIn) AdjustSchema(s *jsonschema.Schema) {
	if err := tool.ApplyConstraints(s,
		tool.Constraint{Kind: tool.Exclusive, Properties: []string{"list", "lane"}},
		tool.Constraint{Kind: tool.AnyOf, Properties: []string{"list", "lane"}},
		tool.Constraint{Kind: tool.Requires, Properties: []string{"lane", "reason"}}); err != nil {
		panic(err)
	}
}

func fxNative() *native.Registry {
	r := native.NewRegistry()
	add := func(t native.Tool) {
		if err := r.Add(t); err != nil {
			panic(err)
		}
	}
	add(native.New(tool.Spec{Name: "doc:read", Description: "Print a file of the workspace, or some of its lines.",
		Annotations: tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		Paths:       []tool.PathInput{{Property: "path", Access: tool.Read}}},
		func(ctx context.Context, env *tool.Env, in docReadIn) tool.Output {
			content, err := readLines(filepath.Join(env.Dir, in.Path), int(in.StartLine), int(in.EndLine))
			if errors.Is(err, fs.ErrNotExist) {
				return tool.Fail(tool.CodeNotFound, "%v", err)
			}
			if err != nil {
				return tool.Fail(tool.CodeCommandFailed, "%v", err)
			}
			return tool.OK(docData(in.Path, content))
		}))
	add(native.New(tool.Spec{Name: "doc:write", Description: "Write a file of the workspace.",
		Annotations: tool.Annotations{DestructiveHint: true},
		Paths:       []tool.PathInput{{Property: "path", Access: tool.Write}}},
		func(ctx context.Context, env *tool.Env, in docWriteIn) tool.Output {
			if err := os.WriteFile(filepath.Join(env.Dir, in.Path), []byte(in.Content), 0o644); err != nil {
				return tool.Fail(tool.CodeCommandFailed, "%v", err)
			}
			return tool.OK(map[string]any{"path": in.Path, "bytes": len(in.Content)})
		}))
	add(native.New(tool.Spec{Name: "repo:status", Description: "Say whether the work tree is clean.",
		Annotations: tool.Annotations{ReadOnlyHint: true, IdempotentHint: true}},
		func(ctx context.Context, env *tool.Env, in struct{}) tool.Output {
			return tool.OK(map[string]any{"clean": true})
		}))
	add(native.New(tool.Spec{Name: "lock:clear", Description: "List the locks, or clear one with a reason.",
		Annotations: tool.Annotations{DestructiveHint: true}},
		func(ctx context.Context, env *tool.Env, in lockClearIn) tool.Output {
			return tool.OK(map[string]any{"locks": []string{}})
		}))
	return r
}

// fixtureHost serves the fixture; its program is fxBin unless --bin names another.
func fixtureHost() cli.Host {
	return cli.Host{Config: hostconfig.Config{
		Config:   adoptconfig.Config{Binary: fxBin, Version: fxVersion},
		Commands: fxCommands(), Native: fxNative(),
	}, Program: fxProgram}
}

// linkFxProgram makes fxBin, a link named fxProgram to this test binary, in dir.
func linkFxProgram(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	fxBin = filepath.Join(dir, fxProgram)
	return os.Symlink(exe, fxBin)
}

// fxTools are the fixture's tools, for tests that count them.
func fxTools(t *testing.T) []string {
	t.Helper()
	names := map[string]bool{}
	for _, c := range fxCommands().All() {
		names[c.Name] = true
	}
	for _, nt := range fxNative().All() {
		names[nt.Spec.Name] = true
	}
	require.Len(t, names, 4)
	var out []string
	for n := range names {
		out = append(out, n)
	}
	return out
}
