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
	commands.Register(legacy.Command{Name: "wu:prep",
		New: newWUPrepApp, Main: convention.Main(newWUPrepApp)})
}

func newWUPrepApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:prep",
		Usage: "Run the gates for an in-progress WU in its worktree, before wu:done",
		Flags: []cli.Flag{
			convention.WU("id", "WU whose gates run", true),
			&cli.BoolFlag{Name: "docs-only", Usage: "run only the docs_only gates"},
		},
		RunsCode: true,
		Action:   wuPrep,
	})
}

// wuPrep is the shell around ops.WUPrep.
func wuPrep(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUPrep(c.Context(), ws, c.Runtime(), ops.WUPrepInput{ID: c.Value("id"),
		DocsOnly: c.Bool("docs-only"), Output: c.Stderr()})
	c.Notes(notes)
	if err != nil && delivery.AsError(err).Code == tool.CodeGatesFailed {
		return c.FailReporting(err, notes.Text, data) // the gate lines, and the report as data
	}
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
