package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// ValidateKeys are the configuration sections validate reads.
var ValidateKeys = []string{"software_delivery.directories", "software_delivery.lanes", "software_delivery.wu"}

// ValidateInput is validate's input.
type ValidateInput struct {
	// ID limits the check to one WU file; "" checks every WU (its form is the shell's check).
	ID string
	// Strict makes warnings fail too.
	Strict bool
	// DoneOnly checks only done WUs.
	DoneOnly bool
}

// ValidateData is validate's JSON data, on success and with its CHECK_FAILED failure.
type ValidateData struct {
	Checked  int                          `json:"checked"`
	Errors   []delivery.ValidationFinding `json:"errors"`
	Warnings []delivery.ValidationFinding `json:"warnings"`
	Passed   bool                         `json:"passed"`
}

// Validate is corpus §3.2 validate: every WU (or ID alone, NOT_FOUND without its file)
// with its cross-references (delivery.ValidateWUs). Errors, or warnings with Strict, are a
// CHECK_FAILED error returned with its data (a check reports what it found even when it
// fails). Notes.Text is the whole text report: one "<id> error: …" or "<id> warning: …"
// line per finding, then "Validated <k> WU(s): <e> error(s), <w> warning(s)". It never
// writes.
func Validate(_ context.Context, ws *delivery.Workspace, in ValidateInput) (ValidateData, Notes, error) {
	var notes Notes
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return ValidateData{}, notes, err
	}
	if in.ID != "" && !hasWUFile(files, in.ID) {
		return ValidateData{}, notes, delivery.Errorf(tool.CodeNotFound, "%s not found (%s)", in.ID, ws.WUPath(in.ID))
	}
	rep, err := delivery.ValidateWUs(ws, files, in.ID, in.DoneOnly)
	if err != nil {
		return ValidateData{}, notes, err
	}
	data := ValidateData{Checked: rep.Checked, Errors: rep.Errors(), Warnings: rep.Warnings()}
	var text strings.Builder
	for _, f := range rep.Findings {
		kind := "warning"
		if f.Error {
			kind = "error"
		}
		fmt.Fprintf(&text, "%s %s: %s\n", f.ID, kind, f.Message)
	}
	failed := len(data.Errors) > 0 || (in.Strict && len(data.Warnings) > 0)
	data.Passed = !failed
	fmt.Fprintf(&text, "Validated %d WU(s): %d error(s), %d warning(s)\n", data.Checked, len(data.Errors), len(data.Warnings))
	notes.Text = text.String()
	if failed {
		return data, notes, delivery.Errorf(tool.CodeCheckFailed, "validation failed: %d error(s), %d warning(s)",
			len(data.Errors), len(data.Warnings))
	}
	return data, notes, nil
}

// hasWUFile reports whether files holds the WU file id.
func hasWUFile(files []delivery.WUFile, id string) bool {
	for _, f := range files {
		if f.ID == id {
			return true
		}
	}
	return false
}
