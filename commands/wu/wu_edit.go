package wu

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:edit",
		New: newWUEditApp, Main: convention.Main(newWUEditApp)})
}

// editFlags are the flags that edit a field, in flag order (the order of data.changed).
var editFlags = []struct{ flag, field string }{
	{"title", "title"}, {"description", "description"}, {"acceptance", "acceptance"},
	{"code-paths", "code_paths"}, {"notes", "notes"}, {"lane", "lane"}, {"priority", "priority"},
	{"type", "type"}, {"exposure", "exposure"}, {"initiative", "initiative"}, {"phase", "phase"},
	{"blocked-by", "blocked_by"},
}

// editFlagNames are the flags of editFlags.
func editFlagNames() []string {
	out := make([]string, len(editFlags))
	for i, f := range editFlags {
		out[i] = f.flag
	}
	return out
}

func newWUEditApp() *cli.App {
	app := convention.App(convention.Spec{
		Name:  "wu:edit",
		Paths: map[string]string{"code_paths": "none"}, // recorded in the spec, never opened
		Usage: "Edit spec fields of a WU that is not done",
		Flags: []cli.Flag{
			convention.WU("id", "WU to edit", true),
			convention.NonBlank(&cli.StringFlag{Name: "title", Usage: "new title"}),
			&cli.StringFlag{Name: "description", Usage: "new description"},
			&cli.StringSliceFlag{Name: "acceptance", Usage: "acceptance criterion to add (repeatable)"},
			&cli.BoolFlag{Name: "replace-acceptance", Usage: "replace the acceptance list instead of appending"},
			&cli.StringSliceFlag{Name: "code-paths", Usage: "code path to add (repeatable)"},
			&cli.BoolFlag{Name: "replace-code-paths", Usage: "replace the code paths instead of appending"},
			&cli.StringFlag{Name: "notes", Usage: "note to append on a new line"},
			&cli.BoolFlag{Name: "replace-notes", Usage: "replace the notes instead of appending"},
			convention.NonBlank(&cli.StringFlag{Name: "lane", Usage: "new lane (not while in_progress or blocked)"}),
			convention.Enum("priority", "new priority", "", delivery.Priorities...),
			convention.Enum("type", "new type", "", delivery.WUTypes...),
			convention.Enum("exposure", "new exposure", "", delivery.Exposures...),
			&cli.StringFlag{Name: "initiative", Usage: "new initiative id or slug"},
			convention.Int("phase", "new phase within the initiative", 0, convention.Bound(1), nil),
			wuList("blocked-by", "the WUs this one waits for (replaces the list)", false),
		},
		Destructive: true,
		// The Before hook below checks it, with its own message.
		Enforces: []convention.Rule{convention.OneOf(editFlagNames()...)},
		Action:   wuEdit,
	})
	// "nothing to edit" is a usage error with its own message (corpus §3.1 wu:edit).
	app.Before = func(cctx *cli.Context) error {
		for _, f := range editFlags {
			if cctx.IsSet(f.flag) {
				return nil
			}
		}
		return errors.New("nothing to edit")
	}
	return app
}

func wuEdit(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	// given is a flag's value when it was given (STRING flags through String, the enums
	// through Value), else nil.
	given := func(flag string, value func(string) string) *string {
		if !c.IsSet(flag) {
			return nil
		}
		v := value(flag)
		return &v
	}
	in := ops.WUEditInput{ID: c.Value("id"), Title: given("title", c.String), Description: given("description", c.String),
		Acceptance: c.Strings("acceptance"), ReplaceAcceptance: c.Bool("replace-acceptance"),
		CodePaths: c.Strings("code-paths"), ReplaceCodePaths: c.Bool("replace-code-paths"),
		Notes: given("notes", c.String), ReplaceNotes: c.Bool("replace-notes"), Lane: given("lane", c.String),
		Priority: given("priority", c.Value), Type: given("type", c.Value), Exposure: given("exposure", c.Value),
		Initiative: given("initiative", c.String), BlockedBy: c.Strings("blocked-by")}
	if c.IsSet("phase") {
		p := int64(c.Int("phase"))
		in.Phase = &p
	}
	data, notes, err := ops.WUEdit(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
