package wu

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:recover",
		New: newWURecoverApp, Main: convention.Main(newWURecoverApp)})
}

func newWURecoverApp() *cli.App {
	action := convention.Enum("action", "fix the WU instead of only reporting", "",
		ops.RecoverResume, ops.RecoverReset, ops.RecoverNuke, ops.RecoverCleanup)
	// The flag table cannot say "--force is required with reset and nuke" (the rule
	// depends on a value), so the check runs as the flag's action: urfave/cli runs it
	// after argv was accepted and before the command's action, and an error there is a
	// usage error (exit 2, nothing executed), like the declarative rules.
	action.Action = func(cctx *cli.Context, v any) error {
		switch fmt.Sprint(v) {
		case ops.RecoverReset, ops.RecoverNuke:
			if !cctx.Bool("force") {
				return fmt.Errorf("flag --action requires --force")
			}
		}
		return nil
	}
	return convention.App(convention.Spec{
		Name:  "wu:recover",
		Usage: "Diagnose a WU whose files, events, worktree and lock disagree, and optionally fix it",
		Flags: []cli.Flag{
			convention.WU("id", "WU to diagnose", true),
			action,
			&cli.BoolFlag{Name: "force", Usage: "confirm a destructive action (required with reset and nuke)"},
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("action")), tool.WritesWhen(tool.IsEqual("action", ops.RecoverResume))},
		// The rule --action's own check enforces (see above).
		Enforces: []convention.Rule{convention.RequiresWhen("action", []string{ops.RecoverReset, ops.RecoverNuke}, "force")},
		Action:   wuRecover,
	})
}

// wuRecover is the shell around ops.WURecover.
func wuRecover(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WURecover(c.Context(), ws, c.Runtime(), ops.WURecoverInput{ID: c.Value("id"),
		Action: c.Value("action"), Force: c.Bool("force")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text+convention.CommitLines(convention.OpsCommit(data.Commit)), data)
}
