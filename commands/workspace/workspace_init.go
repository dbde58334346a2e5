package workspace

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "workspace:init",
		New: newWorkspaceInitApp, Main: convention.Main(newWorkspaceInitApp)})
}

func newWorkspaceInitApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "workspace:init",
		Usage: "Create workspace.yaml, the default directories and the runtime .gitignore entries (never commits)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Usage: "workspace directory (default: the current directory)"},
			&cli.StringFlag{Name: "name", Usage: "workspace name (default: the directory's base name)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing workspace.yaml"},
			&cli.BoolFlag{Name: "yes", Usage: "accepted for compatibility; the command never asks"},
		},
		Paths:       map[string]string{"output": "write"},
		Destructive: true,
		Effects:     []tool.Effect{tool.WritesWhen(tool.IsUnset("force"))},
		Action:      workspaceInit,
	})
}

// workspaceInit is the shell around ops.WorkspaceInit.
func workspaceInit(c *convention.Call) error {
	cwd, err := c.Dir()
	if err != nil {
		return err
	}
	data, notes, err := ops.WorkspaceInit(c.Context(), c.Runtime(), ops.WorkspaceInitInput{Dir: cwd,
		Output: c.String("output"), Name: c.String("name"), Force: c.Bool("force")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
