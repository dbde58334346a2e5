package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:done",
		New: newWUDoneApp, Main: convention.Main(newWUDoneApp)})
}

func newWUDoneApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:done",
		Usage: "Complete a WU: run the gates, merge the lane branch, stamp, commit, clean up",
		Flags: []cli.Flag{
			convention.WU("id", "WU to complete", true),
			&cli.BoolFlag{Name: "skip-gates", Usage: "do not run the gates (needs --reason and --fix-wu; audited)"},
			&cli.StringFlag{Name: "reason", Usage: "why the gates are skipped"},
			convention.WU("fix-wu", "WU that will fix what the skipped gates would catch", false),
			&cli.BoolFlag{Name: "keep-worktree", Usage: "keep the worktree and the lane branch"},
		},
		Rules: []convention.Rule{
			// Checked as skip-gates→reason, reason→skip-gates, skip-gates→fix-wu, fix-wu→skip-gates:
			// the first failure is the one the four Requires in spec order give.
			convention.Together("skip-gates", "reason"), convention.Together("skip-gates", "fix-wu"),
		},
		Network:  true,
		RunsCode: true,
		// Skipping the gates runs no workspace code.
		Effects: []tool.Effect{tool.WritesWhen(tool.IsSet("skip_gates"))},
		Action:  wuDone,
	})
}

// wuDone is the shell around ops.WUDone.
func wuDone(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUDone(c.Context(), ws, c.Runtime(), ops.WUDoneInput{ID: c.Value("id"),
		SkipGates: c.Bool("skip-gates"), Reason: c.String("reason"), FixWU: c.Value("fix-wu"),
		KeepWorktree: c.Bool("keep-worktree"), Output: c.Stderr()})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
