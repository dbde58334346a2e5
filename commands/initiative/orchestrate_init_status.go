package initiative

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "orchestrate:init-status", Domain: "initiative",
		New: newOrchestrateInitStatusApp, Main: convention.Main(newOrchestrateInitStatusApp)})
}

func newOrchestrateInitStatusApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "orchestrate:init-status",
		Usage:    "Show an initiative's progress and its WUs by phase",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug", Required: true},
		},
		Action: orchestrateInitStatus,
	})
}

func orchestrateInitStatus(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	return printInitStatus(c, ws, c.String("initiative"))
}

// printInitStatus prints ops.OrchestrateInitStatus with its warnings (orchestrate:initiative
// --progress prints the same).
func printInitStatus(c *convention.Call, ws *delivery.Workspace, ref string) error {
	data, notes, err := ops.OrchestrateInitStatus(c.Context(), ws, ops.OrchestrateInitStatusInput{Ref: ref})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
