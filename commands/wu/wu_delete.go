package wu

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:delete",
		New: newWUDeleteApp, Main: convention.Main(newWUDeleteApp)})
}

func newWUDeleteApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:delete",
		Usage: "Delete WU specs and everything derived from them",
		Flags: []cli.Flag{
			wuList("id", "WU to delete", true),
			&cli.BoolFlag{Name: "dry-run", Usage: "report what would be deleted without deleting"},
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:      wuDelete,
	})
}

func wuDelete(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	var ids []string
	for _, id := range c.Strings("id") {
		if !containsString(ids, id) {
			ids = append(ids, id)
		}
	}
	plan, err := planDeletion(c, ws, ids)
	if err != nil {
		return err
	}
	data := wuDeleteData{Deleted: ids, FilesRemoved: plan.files, EventsRemoved: plan.events,
		InitiativesUpdated: plan.initiativeIDs(), DryRun: c.Bool("dry-run")}
	headline := "Would delete " + strings.Join(ids, ", ")
	if !data.DryRun {
		headline = "Deleted " + strings.Join(ids, ", ")
		paths, err := plan.apply(ws)
		if err != nil {
			return err
		}
		subject := "docs: delete " + strings.ToLower(ids[0])
		if len(ids) > 1 {
			subject = fmt.Sprintf("docs: delete %d wus (%s)", len(ids), strings.ToLower(strings.Join(ids, ", ")))
		}
		if data.Commit, err = c.Commit(ws, subject, paths...); err != nil {
			return err
		}
	}
	return c.Result(headline, data)
}

// containsString reports whether list holds s.
func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wuDeleteData is wu:delete's JSON data.
type wuDeleteData struct {
	Deleted            []string           `json:"deleted"`
	FilesRemoved       []string           `json:"files_removed"`
	EventsRemoved      int                `json:"events_removed"`
	InitiativesUpdated []string           `json:"initiatives_updated"`
	DryRun             bool               `json:"dry_run"`
	Commit             *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d wuDeleteData) Committed() *convention.Commit { return d.Commit }
