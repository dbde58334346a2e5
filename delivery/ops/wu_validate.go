package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUValidateInput is wu:validate's input.
type WUValidateInput struct {
	// ID is the WU to validate (required; its form is the shell's check).
	ID string
	// NoStrict runs the structural checks only.
	NoStrict bool
}

// WUValidateData is wu:validate's JSON data, on success and with its CHECK_FAILED failure.
type WUValidateData struct {
	ID       string   `json:"id"`
	Valid    bool     `json:"valid"`
	Strict   bool     `json:"strict"`
	Errors   []string `json:"errors"`
	Warnings []string `json:"warnings"`
}

// WUValidate is corpus §3.1 wu:validate: the WU's structural (NoStrict) or strict errors,
// and warnings for a lane workspace.yaml does not define (only when it defines some) and
// for a blocked_by id without a spec file. An invalid WU is a CHECK_FAILED error returned
// with its data (a check reports what it found even when it fails); a WU that cannot be
// read is its error with no data. Notes.Text is the whole text report ("<id>: valid" or
// "<id>: invalid", then one "  error: …" and one "  warning: …" line each).
func WUValidate(ctx context.Context, ws *delivery.Workspace, in WUValidateInput) (WUValidateData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUValidateData{}, notes, err
	}
	strict := !in.NoStrict
	data := WUValidateData{ID: w.ID, Strict: strict, Errors: delivery.ValidateStructure(w), Warnings: []string{}}
	if strict {
		data.Errors = delivery.ValidateStrict(w, ws.Config.MinDescriptionLength)
	}
	data.Errors = orEmpty(data.Errors)
	// With no lanes defined every lane is implicitly allowed (corpus §1.2): no warning then.
	if _, ok := ws.Config.Lane(w.Lane); !ok && w.Lane != "" && len(ws.Config.Lanes) > 0 {
		data.Warnings = append(data.Warnings, fmt.Sprintf("lane %q is not defined in workspace.yaml", w.Lane))
	}
	for _, dep := range w.BlockedBy {
		if delivery.ValidWUID(dep) && !exists(ws, ws.WUPath(dep)) {
			data.Warnings = append(data.Warnings, fmt.Sprintf("blocked_by %s does not exist", dep))
		}
	}
	data.Valid = len(data.Errors) == 0
	var text strings.Builder
	if data.Valid {
		fmt.Fprintf(&text, "%s: valid\n", w.ID)
	} else {
		fmt.Fprintf(&text, "%s: invalid\n", w.ID)
	}
	for _, e := range data.Errors {
		fmt.Fprintf(&text, "  error: %s\n", e)
	}
	for _, wn := range data.Warnings {
		fmt.Fprintf(&text, "  warning: %s\n", wn)
	}
	notes.Text = text.String()
	if !data.Valid {
		return data, notes, delivery.Errorf(tool.CodeCheckFailed, "%s is invalid (%d error(s))", w.ID, len(data.Errors))
	}
	return data, notes, nil
}
