package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:delegate",
		New: newWUDelegateApp, Main: convention.Main(newWUDelegateApp)})
}

func newWUDelegateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:delegate",
		Usage: "Brief a WU for a sub-agent and record the delegation lineage",
		Flags: []cli.Flag{
			convention.WU("id", "the target WU the sub-agent will do", true),
			convention.WU("parent-wu", "the WU delegating the work", true),
			&cli.StringFlag{Name: "client", Usage: "the agent client (default: agents.defaultClient)"},
			&cli.BoolFlag{Name: "no-context", Usage: "leave out the memory context"},
		},
		Action: wuDelegate,
	})
}

func wuDelegate(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUDelegate(c.Context(), ws, c.Runtime(), ops.WUDelegateInput{ID: c.Value("id"),
		ParentWU: c.Value("parent-wu"), Client: c.String("client"), NoContext: c.Bool("no-context")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	c.Progress("Delegation %s: %s -> %s", data.DelegationID, data.ParentWU, data.ID)
	return c.Print(notes.Text, data)
}
