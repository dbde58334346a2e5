package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:brief",
		New: newWUBriefApp, Main: convention.Main(newWUBriefApp)})
}

func newWUBriefApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:brief",
		Usage: "Generate the handoff prompt for the agent doing a WU and record the evidence",
		Flags: []cli.Flag{
			convention.WU("id", "the WU to brief", true),
			&cli.StringFlag{Name: "client", Usage: "the agent client (default: agents.defaultClient)"},
			&cli.BoolFlag{Name: "no-context", Usage: "leave out the memory context"},
			&cli.BoolFlag{Name: "evidence-only", Usage: "record the evidence without printing the prompt"},
		},
		Action: wuBrief,
	})
}

func wuBrief(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUBrief(c.Context(), ws, c.Runtime(), ops.WUBriefInput{ID: c.Value("id"),
		Client: c.String("client"), NoContext: c.Bool("no-context"), EvidenceOnly: c.Bool("evidence-only")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	if data.EvidenceOnly {
		return c.Result(notes.Text, data)
	}
	// The prompt is the whole text output (no R2 fields).
	return c.Print(notes.Text, data)
}
