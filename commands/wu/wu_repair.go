package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:repair",
		New: newWURepairApp, Main: convention.Main(newWURepairApp)})
}

func newWURepairApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:repair",
		Usage: "Repair inconsistencies automatically, treating the YAML as the source of truth",
		Flags: []cli.Flag{
			convention.WU("id", "WU to repair", false),
			&cli.BoolFlag{Name: "all", Usage: "repair every WU"},
			&cli.BoolFlag{Name: "repair-state", Usage: "drop the invalid lines of wu-events.jsonl (a backup is kept)"},
			&cli.BoolFlag{Name: "check", Usage: "only report what would be repaired (read-only; fails if anything is found)"},
		},
		Rules: []convention.Rule{
			convention.Exclusive("id", "all"), convention.Exclusive("id", "repair-state"),
			convention.Exclusive("all", "repair-state"), convention.OneOf("id", "all", "repair-state"),
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("check"))},
		Action:      wuRepair,
	})
}

// wuRepair is the shell around ops.WURepair.
func wuRepair(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WURepair(c.Context(), ws, c.Runtime(), ops.WURepairInput{ID: c.Value("id"),
		All: c.Bool("all"), RepairState: c.Bool("repair-state"), Check: c.Bool("check")})
	c.Notes(notes)
	if err != nil && delivery.AsError(err).Code == tool.CodeCheckFailed {
		return c.FailReporting(err, notes.Text, data) // a check reports what it found
	}
	if err != nil {
		return err
	}
	return c.Print(notes.Text+convention.CommitLines(convention.OpsCommit(data.Commit)), data)
}
