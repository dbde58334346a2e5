package state

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func init() {
	commands.Register(commands.Command{Name: "validate", Domain: "state",
		New: newValidateApp, Main: convention.Main(newValidateApp)})
}

func newValidateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "validate",
		Usage: "Validate every WU (or one) with its cross-references: stamps, initiatives, dependencies, lanes",
		Flags: []cli.Flag{
			convention.WU("id", "validate only this WU", false),
			&cli.BoolFlag{Name: "strict", Usage: "warnings fail too"},
			&cli.BoolFlag{Name: "done-only", Usage: "validate only done WUs"},
		},
		ReadOnly:   true,
		Idempotent: true,
		Action:     validate,
	})
}

func validate(c *convention.Call) error {
	ws, err := open(c)
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.directories", "software_delivery.lanes", "software_delivery.wu"); err != nil {
		return err
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return err
	}
	only := c.Value("id")
	if only != "" && !hasFile(files, only) {
		return c.Failf(tool.CodeNotFound, "%s not found (%s)", only, ws.WUPath(only))
	}
	rep, err := validateWUs(ws, files, only, c.Bool("done-only"))
	if err != nil {
		return err
	}
	failed := len(rep.data.Errors) > 0 || (c.Bool("strict") && len(rep.data.Warnings) > 0)
	rep.data.Passed = !failed
	text := rep.text.String() + fmt.Sprintf("Validated %d WU(s): %d error(s), %d warning(s)\n",
		rep.data.Checked, len(rep.data.Errors), len(rep.data.Warnings))
	if failed {
		msg := fmt.Sprintf("validation failed: %d error(s), %d warning(s)", len(rep.data.Errors), len(rep.data.Warnings))
		return checkFailed(c, text, rep.data, tool.CodeCheckFailed, msg)
	}
	return c.Print(text, rep.data)
}

func hasFile(files []delivery.WUFile, id string) bool {
	for _, f := range files {
		if f.ID == id {
			return true
		}
	}
	return false
}

// validateReport is the findings of validate in file order, as data and as text lines.
type validateReport struct {
	data validateData
	text strings.Builder
}

func (r *validateReport) errorf(id, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.data.Errors = append(r.data.Errors, finding{ID: id, Message: msg})
	fmt.Fprintf(&r.text, "%s error: %s\n", id, msg)
}

func (r *validateReport) warnf(id, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.data.Warnings = append(r.data.Warnings, finding{ID: id, Message: msg})
	fmt.Fprintf(&r.text, "%s warning: %s\n", id, msg)
}

// validateWUs applies validate's per-WU rules (spec §3.2) to the WU files, in ascending id
// order; only limits the check to one file, doneOnly to done WUs.
func validateWUs(ws *delivery.Workspace, files []delivery.WUFile, only string, doneOnly bool) (*validateReport, error) {
	r := &validateReport{data: validateData{Errors: []finding{}, Warnings: []finding{}}}
	inits, err := delivery.ListInitiatives(ws)
	if err != nil {
		return nil, err
	}
	initRefs := map[string]bool{}
	for _, in := range inits {
		initRefs[in.ID], initRefs[in.Slug] = true, true
	}
	known := map[string]bool{}
	owners := map[string][]string{} // id field → files declaring it
	for _, f := range files {
		known[f.ID] = true
		if f.WU != nil && f.WU.ID != "" {
			owners[f.WU.ID] = append(owners[f.WU.ID], f.ID)
		}
	}
	for _, f := range files {
		if only != "" && f.ID != only {
			continue
		}
		if f.Err != nil {
			if doneOnly {
				continue
			}
			r.data.Checked++
			r.errorf(f.ID, "%s", delivery.AsError(f.Err).Message)
			continue
		}
		w := f.WU
		status := w.NormStatus()
		if doneOnly && status != delivery.StatusDone {
			continue
		}
		r.data.Checked++
		for _, e := range delivery.ValidateStructure(w) {
			r.errorf(f.ID, "%s", e)
		}
		if w.ID != "" && w.ID != f.ID {
			r.errorf(f.ID, "id %s does not match file name %s.yaml", w.ID, f.ID)
		}
		if len(owners[w.ID]) > 1 && w.ID != "" {
			r.errorf(f.ID, "duplicate id %s (files %s)", w.ID, strings.Join(owners[w.ID], ", "))
		}
		stamped := delivery.StampExists(ws.Root, f.ID)
		switch {
		case status == delivery.StatusDone && !stamped:
			r.errorf(f.ID, "done but stamp %s is missing", delivery.StampRel(f.ID))
		case status != delivery.StatusDone && stamped:
			r.errorf(f.ID, "stamp %s exists but status is %s", delivery.StampRel(f.ID), status)
		}
		if w.Initiative != "" && !initRefs[w.Initiative] {
			r.errorf(f.ID, "initiative %s does not exist", w.Initiative)
		}
		if status != delivery.StatusDone && status != delivery.StatusClosed {
			structural := len(delivery.ValidateStructure(w))
			for _, e := range delivery.ValidateStrict(w, ws.Config.MinDescriptionLength)[structural:] {
				r.warnf(f.ID, "%s", e)
			}
		}
		for _, dep := range [][2]any{{"blocked_by", w.BlockedBy}, {"blocks", w.Blocks}} {
			for _, id := range dep[1].([]string) {
				if delivery.ValidWUID(id) && !known[id] {
					r.warnf(f.ID, "%s %s does not exist", dep[0], id)
				}
			}
		}
		if _, ok := ws.Config.Lane(w.Lane); !ok && w.Lane != "" {
			r.warnf(f.ID, "lane %q is not defined in workspace.yaml", w.Lane)
		}
	}
	return r, nil
}

// finding is one validate error or warning.
type finding struct {
	ID      string `json:"id"`
	Message string `json:"message"`
}

// validateData is validate's JSON data.
type validateData struct {
	Checked  int       `json:"checked"`
	Errors   []finding `json:"errors"`
	Warnings []finding `json:"warnings"`
	Passed   bool      `json:"passed"`
}
