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
	commands.Register(legacy.Command{Name: "mem:inbox", Domain: "memory",
		New: newMemInboxApp, Main: convention.Main(newMemInboxApp)})
}

func newMemInboxApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:inbox",
		Usage: "List signals (unread by default); mark them read only with --mark",
		Flags: []cli.Flag{
			sinceFlag("since", "only signals created at or after this"),
			convention.WU("wu", "only signals of this work unit (default: the current session's)", false),
			&cli.StringFlag{Name: "lane", Usage: "only signals of this lane"},
			&cli.BoolFlag{Name: "all", Usage: "include read signals"},
			&cli.BoolFlag{Name: "mark", Usage: "append a read receipt for each unread signal shown"},
		},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("mark"))},
		Action:  memInbox,
	})
}

func memInbox(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemInbox(c.Context(), ws, c.Runtime(), ops.MemInboxInput{Since: c.Value("since"),
		WU: c.Value("wu"), Lane: c.String("lane"), All: c.Bool("all"), Mark: c.Bool("mark")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
