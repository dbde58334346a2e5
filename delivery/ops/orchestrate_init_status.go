package ops

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// OrchestrateInitStatusInput is orchestrate:init-status's input.
type OrchestrateInitStatusInput struct {
	// Ref is the initiative id or slug (the command's --initiative).
	Ref string
}

// OrchestrateInitStatusData is orchestrate:init-status's JSON data.
type OrchestrateInitStatusData struct {
	ID       string                    `json:"id"`
	Title    string                    `json:"title"`
	Progress InitiativeProgress        `json:"progress"`
	WUs      []OrchestrateInitStatusWU `json:"wus"`
}

// OrchestrateInitStatusWU is one WU row, with a null phase when it has none.
type OrchestrateInitStatusWU struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Lane   string `json:"lane"`
	Status string `json:"status"`
	Phase  *int   `json:"phase"`
}

// OrchestrateInitStatus is spec orchestrate:init-status (and orchestrate:initiative
// --progress): an initiative (by id, then slug) with its progress and its WUs sorted by
// phase, then id, unphased last. WU files that do not parse are warnings and left out.
// Notes.Text is the whole text output.
func OrchestrateInitStatus(ctx context.Context, ws *delivery.Workspace, in OrchestrateInitStatusInput) (OrchestrateInitStatusData, Notes, error) {
	var notes Notes
	ini, err := delivery.ResolveInitiative(ws, in.Ref)
	if err != nil {
		return OrchestrateInitStatusData{}, notes, err
	}
	all, err := readWUs(ws, &notes)
	if err != nil {
		return OrchestrateInitStatusData{}, notes, err
	}
	wus, _ := delivery.InitiativeWUs(ini, all)
	// Stable on the id order InitiativeWUs returns; WUs without a phase come last.
	sort.SliceStable(wus, func(i, j int) bool {
		pi, pj := wus[i].Phase, wus[j].Phase
		if pi == 0 || pj == 0 {
			return pi != 0 && pj == 0
		}
		return pi < pj
	})
	d := OrchestrateInitStatusData{ID: ini.ID, Title: ini.Title, Progress: ProgressOf(wus), WUs: []OrchestrateInitStatusWU{}}
	var text strings.Builder
	fmt.Fprintf(&text, "%s %s: %d/%d done (%d%%)\n", ini.ID, ini.Title, d.Progress.Done, d.Progress.Total, d.Progress.Percentage)
	for _, w := range wus {
		row := OrchestrateInitStatusWU{ID: w.ID, Title: w.Title, Lane: w.Lane, Status: w.NormStatus()}
		if w.Phase != 0 {
			phase := w.Phase
			row.Phase = &phase
		}
		d.WUs = append(d.WUs, row)
		fmt.Fprintf(&text, "%s  %s  %s  %s\n", row.Status, row.ID, row.Lane, row.Title)
	}
	notes.Text = text.String()
	return d, notes, nil
}
