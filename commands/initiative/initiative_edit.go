package initiative

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:edit",
		New: newInitiativeEditApp, Main: convention.Main(newInitiativeEditApp)})
}

// editChangeFlags are the flags that change something; at least one is required.
var editChangeFlags = []string{"title", "status", "description", "notes", "add-phase", "phase-id",
	"add-success-metric", "target-date", "blocked-by", "unblock"}

func newInitiativeEditApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:edit",
		Usage: "Edit an initiative's fields, phases, metrics or block state and commit it",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "id", Usage: "initiative id or slug", Required: true},
			&cli.StringFlag{Name: "title", Usage: "new title"},
			convention.Enum("status", "new status", "", "draft", "open", "in_progress", "done", "archived"),
			&cli.StringFlag{Name: "description", Usage: "new description"},
			&cli.StringFlag{Name: "notes", Usage: "note appended to the notes list"},
			&cli.StringSliceFlag{Name: "add-phase", Usage: "title of a new pending phase, once per phase"},
			convention.Int("phase-id", "phase to update (with --phase-status)", 0, nil, nil),
			convention.Enum("phase-status", "new status of --phase-id", "", "pending", "in_progress", "done", "blocked"),
			&cli.StringSliceFlag{Name: "add-success-metric", Usage: "success metric to add, once per metric"},
			convention.Date("target-date", "new target date"),
			&cli.StringFlag{Name: "blocked-by", Usage: "what blocks the initiative"},
			&cli.StringFlag{Name: "blocked-reason", Usage: "why it is blocked (with --blocked-by)"},
			&cli.BoolFlag{Name: "unblock", Usage: "remove blocked_by and blocked_reason"},
		},
		Rules: []convention.Rule{
			convention.OneOf(editChangeFlags...),
			convention.Together("phase-id", "phase-status"),
			convention.Requires("blocked-reason", "blocked-by"),
			convention.Exclusive("unblock", "blocked-by"),
		},
		Destructive: true,
		Action:      initiativeEdit,
	})
}

func initiativeEdit(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	in := ops.InitiativeEditInput{Ref: c.String("id"), Title: flagPtr(c, "title"), Description: flagPtr(c, "description"),
		Note: flagPtr(c, "notes"), AddPhases: c.Strings("add-phase"), AddSuccessMetrics: c.Strings("add-success-metric"),
		BlockedBy: flagPtr(c, "blocked-by"), BlockedReason: flagPtr(c, "blocked-reason"), Unblock: c.Bool("unblock")}
	if c.IsSet("status") {
		v := c.Value("status")
		in.Status = &v
	}
	if c.IsSet("phase-id") {
		id, status := c.Int("phase-id"), c.Value("phase-status")
		in.PhaseID, in.PhaseStatus = &id, &status
	}
	if c.IsSet("target-date") {
		v := c.Value("target-date")
		in.TargetDate = &v
	}
	data, notes, err := ops.InitiativeEdit(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
