package wu

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
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
		Usage: "Edit spec fields of a WU that is not done",
		Flags: []cli.Flag{
			convention.WU("id", "WU to edit", true),
			&cli.StringFlag{Name: "title", Usage: "new title"},
			&cli.StringFlag{Name: "description", Usage: "new description"},
			&cli.StringSliceFlag{Name: "acceptance", Usage: "acceptance criterion to add (repeatable)"},
			&cli.BoolFlag{Name: "replace-acceptance", Usage: "replace the acceptance list instead of appending"},
			&cli.StringSliceFlag{Name: "code-paths", Usage: "code path to add (repeatable)"},
			&cli.BoolFlag{Name: "replace-code-paths", Usage: "replace the code paths instead of appending"},
			&cli.StringFlag{Name: "notes", Usage: "note to append on a new line"},
			&cli.BoolFlag{Name: "replace-notes", Usage: "replace the notes instead of appending"},
			&cli.StringFlag{Name: "lane", Usage: "new lane (not while in_progress or blocked)"},
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
	// "nothing to edit" is a usage error with its own message (spec §3.1 wu:edit).
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
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	if s := w.NormStatus(); s == delivery.StatusDone || s == delivery.StatusClosed {
		return delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: it cannot be edited", w.ID, s)
	}
	data := wuEditData{ID: w.ID, Changed: []string{}}
	setStr := func(field, old, val string) {
		if val != old {
			w.Set(field, delivery.StrNode(val))
			data.Changed = append(data.Changed, field)
		}
	}
	setList := func(field string, old, given []string, replace bool) {
		next := slices.Clone(given)
		if !replace {
			next = slices.Clone(old)
			for _, v := range given {
				if !slices.Contains(next, v) {
					next = append(next, v)
				}
			}
		}
		if !slices.Equal(next, old) || w.Get(field) == nil {
			w.Set(field, delivery.StrSeq(next))
			data.Changed = append(data.Changed, field)
		}
	}
	var oldInit, newInit *delivery.Initiative
	for _, f := range editFlags {
		if !c.IsSet(f.flag) {
			continue
		}
		switch f.flag {
		case "title", "description":
			old := w.Title
			if f.flag == "description" {
				old = w.Description
			}
			setStr(f.field, old, c.String(f.flag))
		case "acceptance":
			if len(w.AcceptanceGroups) > 0 && !c.Bool("replace-acceptance") {
				return validationError(w.ID, []string{"acceptance uses the map form: use --replace-acceptance"})
			}
			setList("acceptance", w.Acceptance, c.Strings("acceptance"), c.Bool("replace-acceptance"))
		case "code-paths":
			setList("code_paths", w.CodePaths, c.Strings("code-paths"), c.Bool("replace-code-paths"))
		case "notes":
			notes := c.String("notes")
			if !c.Bool("replace-notes") && w.Notes != "" {
				notes = w.Notes + "\n" + notes
			}
			setStr("notes", w.Notes, notes)
		case "lane":
			if lane := c.String("lane"); lane != w.Lane {
				if s := w.NormStatus(); s == delivery.StatusInProgress || s == delivery.StatusBlocked {
					return validationError(w.ID, []string{fmt.Sprintf("the lane of %s cannot change while it is %s", w.ID, s)})
				}
				setStr("lane", w.Lane, lane)
			}
		case "priority":
			setStr("priority", w.Priority, c.Value("priority"))
		case "type":
			setStr("type", w.Type, c.Value("type"))
		case "exposure":
			setStr("exposure", w.Exposure, c.Value("exposure"))
		case "initiative":
			ref := c.String("initiative")
			if newInit, err = delivery.ResolveInitiative(ws, ref); err != nil {
				return err
			}
			if w.Initiative != "" {
				oldInit, _ = delivery.ResolveInitiative(ws, w.Initiative) // a dangling old link is just dropped
			}
			setStr("initiative", w.Initiative, ref)
		case "phase":
			if p := c.Int("phase"); p != w.Phase || w.Get("phase") == nil {
				w.Set("phase", delivery.IntNode(int64(p)))
				data.Changed = append(data.Changed, "phase")
			}
		case "blocked-by":
			setList("blocked_by", w.BlockedBy, c.Strings("blocked-by"), true)
		}
	}
	w.Refresh()
	if v := delivery.ValidateStructure(w); len(v) > 0 {
		return validationError(w.ID, v)
	}
	if len(data.Changed) == 0 && (newInit == nil || slices.Contains(newInit.WUs, w.ID)) {
		return c.Result("Edited "+w.ID, data) // nothing changed: nothing written
	}
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return err
	}
	paths := []string{w.Path}
	if oldInit != nil && (newInit == nil || oldInit.ID != newInit.ID) {
		if _, err := removeFromInitiative(ws, oldInit, w.ID); err != nil {
			return err
		}
		paths = append(paths, oldInit.Path)
	}
	if newInit != nil {
		if _, err := addToInitiative(ws, newInit, w.ID); err != nil {
			return err
		}
		paths = append(paths, newInit.Path)
	}
	if data.Commit, err = c.Commit(ws, fmt.Sprintf("docs: edit %s spec", strings.ToLower(w.ID)), paths...); err != nil {
		return err
	}
	return c.Result("Edited "+w.ID, data)
}

// wuEditData is wu:edit's JSON data.
type wuEditData struct {
	ID      string             `json:"id"`
	Changed []string           `json:"changed"`
	Commit  *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d wuEditData) Committed() *convention.Commit { return d.Commit }
