// Package nativetest builds real temporary workspaces and git repositories for the
// native tool tests, and calls registered tools the way the kernel's native lane does.
// Test support only: no tool imports it.
package nativetest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Env is the pinned §2.5 environment the tests call tools with.
var Env = map[string]string{
	"GIT_CONFIG_GLOBAL":   "/dev/null",
	"GIT_CONFIG_NOSYSTEM": "1",
	"DELIVERY_NOW":        "2026-03-02T18:37:08.384Z",
	"DELIVERY_SEED":       "seed",
	"DELIVERY_OWNER":      "ada@example.com",
}

// Workspace creates a workspace (workspace.yaml) that is a git repository with one
// commit, and returns its resolved root.
//
// The repository is made with git once per test binary and kept in memory (its files,
// modes and contents); each call writes that tree into a temporary directory of its own,
// which costs a few system calls instead of three git processes. Every workspace of a
// test binary therefore starts at the same commit. The repository's configuration turns
// off git's automatic maintenance: each commit a tool makes would otherwise start a
// `git maintenance run --auto` process that finds nothing to do in so small a repository.
func Workspace(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tree, err := workspaceTemplate()
	require.NoError(t, err, "make the template workspace")
	require.NoError(t, tree.Write(dir))
	return dir
}

var workspaceTemplate = sync.OnceValues(func() (*commandstest.Tree, error) {
	dir, err := os.MkdirTemp("", "nativetest-workspace-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "workspace.yaml"),
		[]byte("id: acme\nname: Acme\nsoftware_delivery:\n  lanes:\n    definitions:\n      - name: 'Core: API'\n"), 0o644); err != nil {
		return nil, err
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "maintenance.auto", "false"},
		{"add", "workspace.yaml"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = cmd.Environ()
		for k, v := range Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git %v: %w: %s", args, err, out)
		}
	}
	return commandstest.ReadTree(dir)
})

// WU writes a ready WU spec into the workspace.
func WU(t *testing.T, root, id, lane string) {
	t.Helper()
	w := delivery.NewWU("docs/tasks/wu", delivery.NewWUInput{ID: id, Title: "t " + id, Lane: lane, Type: "feature", Priority: "P2", Created: "2026-03-02"})
	require.NoError(t, delivery.WriteWU(root, w))
}

// Write creates a file (and its directories) under dir.
func Write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// Git runs git in dir with the pinned environment and returns its trimmed stdout.
func Git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = cmd.Environ()
	for k, v := range Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// Call runs the registered tool name in dir with input and returns its Output with
// data normalised to generic JSON.
func Call(t *testing.T, dir, name, input string) tool.Output {
	t.Helper()
	tl, ok := nativetools.Default.Lookup(name)
	require.True(t, ok, "tool %s is registered", name)
	env := &tool.Env{Dir: dir, LookupEnv: tool.EnvFromMap(Env), Stdin: strings.NewReader(""), Log: io.Discard}
	out := tl.Call(context.Background(), env, json.RawMessage(input))
	if out.Data != nil {
		b, err := json.Marshal(out.Data)
		require.NoError(t, err)
		var generic any
		require.NoError(t, json.Unmarshal(b, &generic))
		out.Data = generic
	}
	return out
}

// Data returns a successful Output's data object, failing the test otherwise.
func Data(t *testing.T, out tool.Output) map[string]any {
	t.Helper()
	require.True(t, out.Success, "%+v", out.Error)
	m, ok := out.Data.(map[string]any)
	require.True(t, ok, "data is an object: %#v", out.Data)
	return m
}

// Code returns a failed Output's error code.
func Code(t *testing.T, out tool.Output) string {
	t.Helper()
	require.False(t, out.Success, "expected a failure, got %#v", out.Data)
	require.NotNil(t, out.Error)
	return out.Error.Code
}

// Failure is one failing call of a native tool: its input, whether it runs outside any
// workspace, and the error code it must end with.
type Failure struct {
	Name, Input string
	NoWorkspace bool
	Code        string
}

// Failures calls the tool once per case, in a fresh workspace (given to prepare first,
// when prepare is set) or, for NoWorkspace, in an empty directory, and requires each
// case's error code.
func Failures(t *testing.T, name string, prepare func(t *testing.T, ws string), cases []Failure) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			dir := Workspace(t)
			if prepare != nil {
				prepare(t, dir)
			}
			if tc.NoWorkspace {
				dir = t.TempDir()
			}
			assert.Equal(t, tc.Code, Code(t, Call(t, dir, name, tc.Input)))
		})
	}
}

// Case is a Failure, written as one row.
func Case(name, input string, noWorkspace bool, code string) Failure {
	return Failure{Name: name, Input: input, NoWorkspace: noWorkspace, Code: code}
}

// Refused requires the schema's refusal: INVALID_INPUT from native.Tool.Call (as from the
// kernel), before the handler runs, whose details.path is path (a property's JSON
// pointer, or "/" for a rule between properties).
func Refused(t *testing.T, out tool.Output, path string) {
	t.Helper()
	require.Equal(t, tool.CodeInvalidInput, Code(t, out), "%+v", out.Error)
	details, ok := out.Error.Details.(map[string]any)
	require.True(t, ok, "details: %#v", out.Error.Details)
	assert.Equal(t, path, details["path"], "%+v", out.Error)
}

// Outcome is a failed Output's error code and, for the schema's refusal, the place it
// names: "INVALID_INPUT /path" (see InvalidAt).
func Outcome(t *testing.T, out tool.Output) string {
	t.Helper()
	code := Code(t, out)
	if code != tool.CodeInvalidInput {
		return code
	}
	d, _ := out.Error.Details.(map[string]any)
	path, _ := d["path"].(string)
	return code + " " + path
}

// InvalidAt is the Outcome of an input the schema refuses at path.
func InvalidAt(path string) string { return tool.CodeInvalidInput + " " + path }
