package kernel_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestScopes(t *testing.T) {
	k, ws := newKernel(t, &probe{})
	outside := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "docs", "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "docs", "escape-dir")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(ws, "docs", "escape-file")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "not-yet"), filepath.Join(ws, "docs", "dangling")))
	require.NoError(t, os.Symlink(filepath.Join(ws, "docs", "sub"), filepath.Join(ws, "inside-link")))
	require.NoError(t, os.MkdirAll(filepath.Join(outside, "deep"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(outside, "deep"), filepath.Join(ws, "docs", "deep")))
	require.NoError(t, os.Symlink("loop", filepath.Join(ws, "docs", "loop")))

	docsWriter := kernel.Caller{Subject: "docs-bot", Read: []string{"."}, Write: []string{"docs"}}
	reader := kernel.Caller{Subject: "reader", Read: []string{"docs"}}
	cases := []struct {
		name   string
		tool   string
		path   string
		caller kernel.Caller
		ok     bool
	}{
		{"relative inside write scope", "test:write", "docs/a.md", docsWriter, true},
		{"nested new dirs", "test:write", "docs/new/deeper/a.md", docsWriter, true},
		{"dot-dot back inside", "test:write", "docs/sub/../b.md", docsWriter, true},
		{"dot-dot out of scope", "test:write", "docs/../src/main.go", docsWriter, false},
		{"dot-dot out of workspace", "test:write", "../../etc/passwd", docsWriter, false},
		{"absolute outside", "test:write", "/etc/passwd", docsWriter, false},
		{"absolute inside", "test:write", filepath.Join(ws, "docs", "c.md"), docsWriter, true},
		{"symlinked dir pointing outside", "test:write", "docs/escape-dir/x", docsWriter, false},
		{"symlinked file pointing outside", "test:write", "docs/escape-file", docsWriter, false},
		{"dangling link pointing outside", "test:write", "docs/dangling", docsWriter, false},
		{"link from outside scope into scope", "test:write", "inside-link/x", docsWriter, true},
		// ".." after a link climbs from where the link points, as the program's open
		// does, not from the link's own directory.
		{"dot-dot after a link pointing outside", "test:read", "docs/deep/../secret", reader, false},
		{"dot-dot after a link pointing outside, writing", "test:write", "docs/deep/../new.md", docsWriter, false},
		{"dot-dot after a link, still in scope", "test:write", "inside-link/../b.md", docsWriter, true},
		{"a loop of links: where it leads is not known", "test:write", "docs/loop/x", docsWriter, false},
		{"read scope is not a write scope", "test:write", "docs/a.md", reader, false},
		{"read inside read scope", "test:read", "docs/a.md", reader, true},
		{"read outside read scope", "test:read", "README.md", reader, false},
		{"read through escaping link", "test:read", "docs/escape-file", reader, false},
		{"workspace tool needs a workspace scope", "test:echo", "", reader, false},
		{"workspace write tool needs write scope", "wu:edit", "", docsWriter, false},
		{"no scopes at all", "test:read", "docs/a.md", kernel.Caller{Subject: "nobody"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			input := `{}`
			switch {
			case tc.tool == "wu:edit":
				input = `{"id":"WU-1"}`
			case tc.path != "":
				input = `{"path":` + quote(tc.path) + `}`
			}
			r := req(tc.tool, input)
			r.Caller = tc.caller
			res := k.Call(context.Background(), r)
			if tc.ok {
				assert.True(t, res.Output.Success, "%+v", res.Output.Error)
				return
			}
			require.NotNil(t, res.Output.Error)
			assert.Equal(t, tool.CodeScopeDenied, res.Output.Error.Code, res.Output.Error.Message)
		})
	}
}

func quote(s string) string {
	b, _ := jsonMarshal(s)
	return string(b)
}

// TestRedTeamReadOnlyCallerAndEffects: a caller with only a read scope may call a writer
// in the mode its effects declare read-only (a check, a dry run), as the policy already
// treats that call as a read, and is refused every mode that writes, whatever else the
// input says.
func TestRedTeamReadOnlyCallerAndEffects(t *testing.T) {
	ran := 0
	k, _ := newKernel(t, &probe{}, withEffectTools(t, &ran))
	reader := kernel.Caller{Subject: "reader", Read: []string{"."}}
	for _, tc := range []struct {
		tool, input string
		ok          bool
	}{
		{"test:doctor", `{}`, true},
		{"test:doctor", `{"dry_run":true}`, true},
		{"test:doctor", `{"fix":true,"dry_run":true}`, true}, // the second effect holds: a dry run
		{"test:doctor", `{"fix":true}`, false},
		{"test:doctor", `{"fix":true,"dry_run":false}`, false},
		{"test:recover", `{}`, true},
		{"test:recover", `{"action":"resume"}`, false},
		{"test:recover", `{"action":"abandon"}`, false},
	} {
		t.Run(tc.tool+tc.input, func(t *testing.T) {
			before := ran
			r := req(tc.tool, tc.input)
			r.Caller = reader
			res := k.Call(context.Background(), r)
			if tc.ok {
				require.True(t, res.Output.Success, "%+v", res.Output.Error)
				assert.Equal(t, "read_only", res.Receipt.Effect)
				assert.Equal(t, before+1, ran)
				return
			}
			require.NotNil(t, res.Output.Error)
			assert.Equal(t, tool.CodeScopeDenied, res.Output.Error.Code, res.Output.Error.Message)
			assert.Contains(t, res.Output.Error.Message, "write scopes")
			assert.Equal(t, before, ran, "a refused call never runs")
		})
	}
}

// TestRedTeamCallerToolsBoundWhatItCalls: a caller with tool globs (a token's) that
// reaches a tool outside them — through a surface that lists it by mistake, as MCP on
// demand once did — gets what an unknown tool gets, and nothing runs; a tool inside
// them runs; no globs at all (an empty list) reach nothing, and nil every tool.
func TestRedTeamCallerToolsBoundWhatItCalls(t *testing.T) {
	k, _ := newKernel(t, &probe{})
	call := func(tools []string, name string) tool.Output {
		r := req(name, `{}`)
		r.Caller = kernel.Caller{Subject: "s", Read: []string{"."}, Tools: tools}
		return k.Call(context.Background(), r).Output
	}
	unknown := call(nil, "test:nope")
	require.NotNil(t, unknown.Error)
	out := call([]string{"test:r*"}, "test:echo")
	require.NotNil(t, out.Error, "a tool outside the caller's globs ran")
	assert.Equal(t, unknown.Error.Code, out.Error.Code)
	assert.Equal(t, `unknown tool "test:echo"`, out.Error.Message)
	out = call([]string{}, "test:echo")
	require.NotNil(t, out.Error, "a caller with no tools called one")
	assert.Equal(t, tool.CodeToolNotFound, out.Error.Code)
	for _, tools := range [][]string{nil, {"test:*"}, {"test:echo"}} {
		out = call(tools, "test:echo")
		assert.True(t, out.Success, "%v: %+v", tools, out.Error)
	}
}
