package kernel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// A command alias of a tree is a spelling of its tool: a call by the alias runs the
// tool (and is recorded under its name), while the list shows the name only.
func TestCommandAliasesCallTheirTool(t *testing.T) {
	r := legacy.NewRegistry()
	require.NoError(t, r.AddApp(func() *cli.App {
		return &cli.App{Name: "gizmo", Commands: []*cli.Command{
			{Name: "notes", Subcommands: []*cli.Command{
				{Name: "rm", Aliases: []string{"remove"}, Action: func(c *cli.Context) error {
					_, err := c.App.Writer.Write([]byte("removed\n"))
					return err
				}},
			}},
		}}
	}, legacy.TreeOptions{Effects: map[string]legacy.Effects{"notes:*": {}}})) // they write (undeclared, they would ask first)
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: t.TempDir(),
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Commands: r,
		Native:   native.NewRegistry(),
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })

	var names []string
	for _, s := range k.Tools() {
		names = append(names, s.Name)
	}
	assert.Equal(t, []string{"notes:rm"}, names)
	for _, spelling := range []string{"notes:remove", "notes_remove", "notes:rm"} {
		res := k.Call(context.Background(), kernel.Request{Tool: spelling, Input: []byte(`{}`), Caller: kernel.WorkspaceCaller("tester")})
		assert.True(t, res.Output.Success, "%s: %+v", spelling, res.Output.Error)
		b, err := json.Marshal(res.Output)
		require.NoError(t, err)
		assert.Contains(t, string(b), "removed", spelling)
	}
	res := k.Call(context.Background(), kernel.Request{Tool: "notes:delete", Input: []byte(`{}`), Caller: kernel.WorkspaceCaller("tester")})
	assert.Equal(t, tool.CodeToolNotFound, res.Output.Error.Code)
}

// An alias that would shadow another tool's name, or that two tools claim, resolves to
// nothing, and the spec of each tool that declares it says so (tools list and status
// show spec warnings); an unambiguous alias keeps working and warns of nothing.
func TestAmbiguousAliasesAreWarned(t *testing.T) {
	r := legacy.NewRegistry()
	say := func(s string) cli.ActionFunc {
		return func(c *cli.Context) error { _, err := c.App.Writer.Write([]byte(s)); return err }
	}
	require.NoError(t, r.AddApp(func() *cli.App {
		return &cli.App{Name: "dbkit", Commands: []*cli.Command{
			{Name: "db-up", ArgsUsage: " ", Action: say("db-up\n")},
			{Name: "database", Aliases: []string{"db"}, Subcommands: []*cli.Command{
				{Name: "up", ArgsUsage: " ", Action: say("up\n")},
			}},
			{Name: "foo", ArgsUsage: " ", Aliases: []string{"x-y"}, Action: say("foo\n")},
			{Name: "x", Subcommands: []*cli.Command{
				{Name: "y2", ArgsUsage: " ", Aliases: []string{"y"}, Action: say("y2\n")},
			}},
			{Name: "rollback", ArgsUsage: " ", Aliases: []string{"down"}, Action: say("rollback\n")},
		}}
	}, legacy.TreeOptions{Effects: map[string]legacy.Effects{"**": {}}}))
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: t.TempDir(),
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Commands: r,
		Native:   native.NewRegistry(),
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })

	warnings := map[string][]string{}
	for _, s := range k.Tools() {
		warnings[s.Name] = s.Warnings
	}
	assert.Equal(t, map[string][]string{
		"db-up":       nil,
		"database:up": {`alias "db:up" resolves to nothing: it would shadow the tool db-up`},
		"foo":         {`alias "x-y" resolves to nothing: it would shadow an alias of x:y2`},
		"x:y2":        {`alias "x:y" resolves to nothing: it would shadow an alias of foo`},
		"rollback":    nil,
	}, warnings)

	call := func(spelling string) tool.Output {
		return k.Call(context.Background(), kernel.Request{Tool: spelling, Input: []byte(`{}`), Caller: kernel.WorkspaceCaller("tester")}).Output
	}
	for spelling, want := range map[string]string{"db:up": "db-up\n", "db_up": "db-up\n", "down": "rollback\n", "x:y2": "y2\n"} {
		out := call(spelling)
		require.True(t, out.Success, "%s: %+v", spelling, out.Error)
		b, err := json.Marshal(out.Data)
		require.NoError(t, err)
		assert.Contains(t, string(b), `"stdout":`+string(must(json.Marshal(want))), spelling)
	}
	out := call("x:y")
	require.NotNil(t, out.Error, "an alias two tools claim runs neither")
	assert.Equal(t, tool.CodeToolNotFound, out.Error.Code)
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
