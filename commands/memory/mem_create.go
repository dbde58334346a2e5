package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:create", Domain: "memory",
		New: newMemCreateApp, Main: convention.Main(newMemCreateApp)})
}

func newMemCreateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:create",
		Usage: "Create a memory node (a discovery by default)",
		Flags: []cli.Flag{
			convention.NonBlank(&cli.StringFlag{Name: "message", Usage: "node content (non-empty)", Required: true}),
			convention.WU("wu", "work unit (default: the current session's)", false),
			&cli.StringFlag{Name: "type", Usage: "node type, or bug, idea, question, dependency (a tagged discovery)", Value: ops.DefaultMemCreateType},
			&cli.StringSliceFlag{Name: "tags", Usage: "tag (repeatable)"},
			convention.MEM("discovered-from", "node this one was discovered from", false),
			&cli.StringFlag{Name: "session", Usage: "session uuid (default: the current session's)"},
			convention.Enum("priority", "priority", "", "P0", "P1", "P2", "P3"),
		},
		Action: memCreate,
	})
}

func memCreate(c *convention.Call) error {
	in := ops.MemCreateInput{Message: c.String("message"), WU: c.Value("wu"), Type: c.String("type"),
		Tags: c.Strings("tags"), DiscoveredFrom: c.Value("discovered-from"), Session: c.String("session"),
		Priority: c.Value("priority")}
	if err := in.Check(); err != nil {
		return err
	}
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemCreate(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
