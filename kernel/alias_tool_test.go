package kernel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
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
	k, err := kernel.New(kernel.Config{Workspace: t.TempDir(), Commands: r, Native: native.NewRegistry(),
		Evidence: kernel.EvidenceConfig{Sync: evidence.SyncBuffered}})
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
