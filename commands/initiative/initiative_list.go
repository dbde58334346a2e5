package initiative

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
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
	all, err := delivery.ListInitiatives(ws)
	if err != nil {
		return err
	}
	wus, err := readWUs(c, ws)
	if err != nil {
		return err
	}
	data := initiativeListData{Initiatives: []initiativeRow{}}
	var rows [][]string
	members := delivery.NewMembershipIndex(wus)
	for _, in := range all {
		mine, missing := members.Members(in)
		status := delivery.DerivedStatus(in, mine)
		if c.IsSet("status") && status != c.String("status") {
			continue
		}
		// A listed WU without a spec is neither counted nor hidden (docs/real-data.md).
		if len(missing) > 0 {
			c.Warn("%s lists WUs that have no spec: %s", in.ID, strings.Join(missing, ", "))
		}
		p := progressOf(mine)
		row := initiativeRow{ID: in.ID, Slug: in.Slug, Title: in.Title, Status: status,
			RawStatus: in.Status, Priority: priorityOf(in), Done: p.Done, Total: p.Total, Missing: append([]string{}, missing...)}
		data.Initiatives = append(data.Initiatives, row)
		rows = append(rows, []string{row.ID, row.Status, fmt.Sprintf("%d/%d", row.Done, row.Total), row.Priority, row.Title})
	}
	return c.Print(convention.Table("initiatives", []string{"id", "status", "progress", "priority", "title"}, rows), data)
}

// initiativeListData is initiative:list's JSON data.
type initiativeListData struct {
	Initiatives []initiativeRow `json:"initiatives"`
}

type initiativeRow struct {
	ID        string `json:"id"`
	Slug      string `json:"slug"`
	Title     string `json:"title"`
	Status    string `json:"status"`
	RawStatus string `json:"raw_status"`
	Priority  string `json:"priority"`
	Done      int    `json:"done"`
	Total     int    `json:"total"`
	// Missing are the listed WUs whose spec is gone: not counted in done or total.
	Missing []string `json:"missing"`
}
