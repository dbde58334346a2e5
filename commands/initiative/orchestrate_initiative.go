package initiative

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "orchestrate:initiative", Domain: "initiative",
		New: newOrchestrateInitiativeApp, Main: convention.Main(newOrchestrateInitiativeApp)})
}

func newOrchestrateInitiativeApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "orchestrate:initiative",
		Usage: "Plan an initiative's execution waves and signal the first wave",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug", Required: true},
			&cli.BoolFlag{Name: "dry-run", Usage: "plan only, send no signals"},
			&cli.BoolFlag{Name: "progress", Usage: "print orchestrate:init-status and stop"},
		},
		Rules:   []convention.Rule{convention.Exclusive("progress", "dry-run")},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run")), tool.ReadOnlyWhen(tool.IsSet("progress"))},
		Action:  orchestrateInitiative,
	})
}

func orchestrateInitiative(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	if c.Bool("progress") {
		return printInitStatus(c, ws, c.String("initiative"))
	}
	data, notes, err := ops.OrchestrateInitiative(c.Context(), ws, c.Runtime(),
		ops.OrchestrateInitiativeInput{Ref: c.String("initiative"), DryRun: c.Bool("dry-run")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
