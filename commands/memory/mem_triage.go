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
	commands.Register(legacy.Command{Name: "mem:triage", Domain: "memory",
		New: newMemTriageApp, Main: convention.Main(newMemTriageApp)})
}

func newMemTriageApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:triage",
		Usage: "List open discoveries, promote one to a bug WU, or archive one",
		Flags: []cli.Flag{
			convention.WU("wu", "only discoveries of this work unit (default: the current session's)", false),
			convention.MEM("promote", "discovery to promote to a new WU", false),
			&cli.StringFlag{Name: "lane", Usage: "lane of the promoted WU"},
			&cli.StringFlag{Name: "title", Usage: "title of the promoted WU (default: the content's first sentence)"},
			convention.MEM("archive", "discovery to archive", false),
			&cli.StringFlag{Name: "reason", Usage: "why the discovery is archived"},
		},
		Rules: []convention.Rule{
			convention.Exclusive("promote", "archive"),
			convention.Requires("promote", "lane"),
			convention.Requires("archive", "reason"),
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("promote"), tool.IsUnset("archive"))},
		Action:      memTriage,
	})
}

func memTriage(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemTriage(c.Context(), ws, c.Runtime(), ops.MemTriageInput{WU: c.Value("wu"),
		Promote: c.Value("promote"), Lane: c.String("lane"), Title: c.String("title"),
		Archive: c.Value("archive"), Reason: c.String("reason")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	switch d := data.(type) {
	case ops.MemTriagePromoteData:
		return c.Result(notes.Headline, memTriagePromoteData{d})
	case ops.MemTriageArchiveData:
		return c.Result(notes.Headline, d)
	}
	return c.Print(notes.Text, data)
}

// memTriagePromoteData is mem:triage --promote's JSON data, with its commit for rule R4.
type memTriagePromoteData struct {
	ops.MemTriagePromoteData
}

// Committed gives the text renderer the commit for rule R4.
func (d memTriagePromoteData) Committed() *convention.Commit {
	cm := d.Commit
	if cm == nil {
		return nil
	}
	return &convention.Commit{SHA: cm.SHA, Subject: cm.Subject, Pushed: cm.Pushed, Branch: cm.Branch}
}
