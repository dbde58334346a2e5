package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:summarize", Domain: "memory",
		New: newMemSummarizeApp, Main: convention.Main(newMemSummarizeApp)})
}

func newMemSummarizeApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:summarize",
		Usage: "Aggregate a WU's memory nodes into one project summary node",
		Flags: []cli.Flag{
			convention.WU("wu", "work unit", true),
			&cli.BoolFlag{Name: "dry-run", Usage: "print the summary without writing"},
		},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:  memSummarize,
	})
}

func memSummarize(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemSummarize(c.Context(), ws, c.Runtime(), ops.MemSummarizeInput{WU: c.Value("wu"), DryRun: c.Bool("dry-run")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	c.Progress("Marked %d node(s) for cleanup", len(data.Marked))
	return c.Print(notes.Text, data)
}
