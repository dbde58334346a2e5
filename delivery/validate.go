package delivery

import (
	"fmt"
	"strings"
)

// ValidationFinding is one finding of the validate rules (corpus §3.2 `validate`) about a
// WU file. Error is false for a warning.
type ValidationFinding struct {
	ID      string `json:"id"`
	Message string `json:"message"`
	Error   bool   `json:"-"`
}

// ValidationReport is what [ValidateWUs] found: the number of WU files checked and the
// findings in the order the rules produced them (file order, then rule order).
type ValidationReport struct {
	Checked  int
	Findings []ValidationFinding
}

// Errors returns the error findings, in order; never nil.
func (r *ValidationReport) Errors() []ValidationFinding { return r.filter(true) }

// Warnings returns the warning findings, in order; never nil.
func (r *ValidationReport) Warnings() []ValidationFinding { return r.filter(false) }

func (r *ValidationReport) filter(errs bool) []ValidationFinding {
	out := []ValidationFinding{}
	for _, f := range r.Findings {
		if f.Error == errs {
			out = append(out, f)
		}
	}
	return out
}

func (r *ValidationReport) add(isErr bool, id, format string, args ...any) {
	r.Findings = append(r.Findings, ValidationFinding{ID: id, Message: fmt.Sprintf(format, args...), Error: isErr})
}

// ValidateWUs applies validate's per-WU rules (corpus §3.2) to files as [ListWUs] returns
// them, in that order: a file that does not parse, structural violations, an id that does
// not match the file name, a duplicate id, a missing or unexpected stamp and an unknown
// initiative are errors; strict content rules (for WUs neither done nor closed), unknown
// blocked_by/blocks ids and an undefined lane are warnings. only limits the check to one
// file id, doneOnly to done WUs. The caller checks the configuration keys first
// (software_delivery.directories, .lanes, .wu). It reads the initiatives and stamps and
// never writes.
func ValidateWUs(ws *Workspace, files []WUFile, only string, doneOnly bool) (*ValidationReport, error) {
	r := &ValidationReport{}
	inits, err := ListInitiatives(ws)
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
			r.Checked++
			r.add(true, f.ID, "%s", AsError(f.Err).Message)
			continue
		}
		w := f.WU
		status := w.NormStatus()
		if doneOnly && status != StatusDone {
			continue
		}
		r.Checked++
		structural := ValidateStructure(w)
		for _, e := range structural {
			r.add(true, f.ID, "%s", e)
		}
		if w.ID != "" && w.ID != f.ID {
			r.add(true, f.ID, "id %s does not match file name %s.yaml", w.ID, f.ID)
		}
		if w.ID != "" && len(owners[w.ID]) > 1 {
			r.add(true, f.ID, "duplicate id %s (files %s)", w.ID, strings.Join(owners[w.ID], ", "))
		}
		stamped := StampExists(ws.Root, f.ID)
		switch {
		case status == StatusDone && !stamped:
			r.add(true, f.ID, "done but stamp %s is missing", StampRel(f.ID))
		case status != StatusDone && stamped:
			r.add(true, f.ID, "stamp %s exists but status is %s", StampRel(f.ID), status)
		}
		if w.Initiative != "" && !initRefs[w.Initiative] {
			r.add(true, f.ID, "initiative %s does not exist", w.Initiative)
		}
		if status != StatusDone && status != StatusClosed {
			// ValidateStrict repeats the structural violations first; only the rest are
			// content warnings.
			for _, e := range ValidateStrict(w, ws.Config.MinDescriptionLength)[len(structural):] {
				r.add(false, f.ID, "%s", e)
			}
		}
		for _, dep := range []struct {
			field string
			ids   []string
		}{{"blocked_by", w.BlockedBy}, {"blocks", w.Blocks}} {
			for _, id := range dep.ids {
				if ValidWUID(id) && !known[id] {
					r.add(false, f.ID, "%s %s does not exist", dep.field, id)
				}
			}
		}
		if _, ok := ws.Config.Lane(w.Lane); !ok && w.Lane != "" {
			r.add(false, f.ID, "lane %q is not defined in workspace.yaml", w.Lane)
		}
	}
	return r, nil
}
