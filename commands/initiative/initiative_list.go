package initiative

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:list",
		New: newInitiativeListApp, Main: convention.Main(newInitiativeListApp)})
}

func newInitiativeListApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "initiative:list",
		Usage:    "List initiatives with their derived status and progress",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "status", Usage: "only initiatives with this derived status"},
		},
		Action: initiativeList,
	})
}

func initiativeList(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	var in ops.InitiativeListInput
	if c.IsSet("status") {
		status := c.String("status")
		in.Status = &status
	}
	data, notes, err := ops.InitiativeList(c.Context(), ws, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	rows := make([][]string, 0, len(data.Initiatives))
	for _, row := range data.Initiatives {
		rows = append(rows, []string{row.ID, row.Status, fmt.Sprintf("%d/%d", row.Done, row.Total), row.Priority, row.Title})
	}
	return c.Print(convention.Table("initiatives", []string{"id", "status", "progress", "priority", "title"}, rows), data)
}
