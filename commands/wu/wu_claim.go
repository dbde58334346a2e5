package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:claim",
		New: newWUClaimApp, Main: convention.Main(newWUClaimApp)})
}

func newWUClaimApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:claim",
		Usage: "Claim a ready WU: lock its lane, mark it in_progress and create its worktree",
		Flags: []cli.Flag{
			convention.WU("id", "WU to claim", true),
			convention.NonBlank(&cli.StringFlag{Name: "lane", Usage: "lane of the WU (must match its spec)", Required: true}),
			&cli.BoolFlag{Name: "branch-only", Usage: "work in the main checkout instead of a worktree"},
			&cli.BoolFlag{Name: "force", Usage: "skip the dependency and WIP checks (never the lock)"},
		},
		Action: wuClaim,
	})
}

func wuClaim(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUClaim(c.Context(), ws, c.Runtime(), ops.WUClaimInput{ID: c.Value("id"),
		Lane: c.String("lane"), BranchOnly: c.Bool("branch-only"), Force: c.Bool("force")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
