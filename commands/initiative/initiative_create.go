package initiative

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:create",
		New: newInitiativeCreateApp, Main: convention.Main(newInitiativeCreateApp)})
}

func newInitiativeCreateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:create",
		Usage: "Create an initiative file and commit it",
		Flags: []cli.Flag{
			convention.NonBlank(&cli.StringFlag{Name: "title", Usage: "initiative title", Required: true}),
			&cli.StringFlag{Name: "id", Usage: "initiative id (default: the next INIT-<n>)"},
			&cli.StringFlag{Name: "slug", Usage: "unique kebab-case slug (default: kebab of the title)"},
			&cli.StringFlag{Name: "description", Usage: "what the initiative delivers"},
			convention.Enum("priority", "priority", "P2", "P0", "P1", "P2", "P3"),
			&cli.StringFlag{Name: "owner", Usage: "owner of the initiative"},
			convention.Date("target-date", "target date"),
			&cli.StringSliceFlag{Name: "phase", Usage: "phase title, once per phase"},
			&cli.StringSliceFlag{Name: "success-metric", Usage: "success metric, once per metric"},
		},
		Action: initiativeCreate,
	})
}

func initiativeCreate(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	in := ops.InitiativeCreateInput{Title: c.String("title"), ID: flagPtr(c, "id"), Slug: flagPtr(c, "slug"),
		Description: c.String("description"), Priority: c.Value("priority"), Owner: flagPtr(c, "owner"),
		Phases: c.Strings("phase"), SuccessMetrics: c.Strings("success-metric")}
	if c.IsSet("target-date") {
		in.TargetDate = c.Value("target-date")
	}
	data, notes, err := ops.InitiativeCreate(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
