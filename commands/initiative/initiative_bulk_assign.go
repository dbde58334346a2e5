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
	commands.Register(legacy.Command{Name: "initiative:bulk-assign",
		New: newInitiativeBulkAssignApp, Main: convention.Main(newInitiativeBulkAssignApp)})
}

func newInitiativeBulkAssignApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:bulk-assign",
		Usage: "Assign unlinked WUs to initiatives by lane prefix (dry run unless --apply)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Usage: "rules file: rules: [{lane_prefix, initiative}]",
				Value: "tools/config/initiative-lane-buckets.yaml"},
			&cli.BoolFlag{Name: "apply", Usage: "write and commit the assignments (default: dry run)"},
		},
		Paths:   map[string]string{"config": "read"},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("apply"))},
		Action:  initiativeBulkAssign,
	})
}

func initiativeBulkAssign(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.InitiativeBulkAssign(c.Context(), ws, c.Runtime(), ops.InitiativeBulkAssignInput{
		Config: c.String("config"), Apply: c.Bool("apply"),
	})
	c.Notes(notes)
	if err != nil {
		return err
	}
	rows := make([][]string, 0, len(data.Assignments))
	for _, a := range data.Assignments {
		rows = append(rows, []string{a.WU, a.Lane, a.Initiative})
	}
	text := convention.Table("assignments", []string{"wu", "lane", "initiative"}, rows) + convention.CommitLines(convention.OpsCommit(data.Commit))
	return c.Print(text, data)
}
