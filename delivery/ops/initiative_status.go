package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// InitiativeKeys are the configuration sections initiative operations read.
var InitiativeKeys = []string{"software_delivery.directories"}

// InitiativeStatusInput is initiative:status's input.
type InitiativeStatusInput struct {
	// Ref is the initiative id or slug (the command's --id or positional ID).
	Ref string
}

// Check requires a reference (USAGE, as a missing positional), before the workspace is
// opened.
func (in InitiativeStatusInput) Check() error {
	if in.Ref == "" {
		return delivery.Errorf(tool.CodeUsage, "missing required argument ID")
	}
	return nil
}

// InitiativeProgress is the {percentage, done, in_progress, blocked, ready, total}
// object of an initiative.
type InitiativeProgress struct {
	Percentage int `json:"percentage"`
	Done       int `json:"done"`
	InProgress int `json:"in_progress"`
	Blocked    int `json:"blocked"`
	Ready      int `json:"ready"`
	Total      int `json:"total"`
}

// InitiativeStatusData is initiative:status's JSON data.
type InitiativeStatusData struct {
	ID             string             `json:"id"`
	Slug           string             `json:"slug"`
	Title          string             `json:"title"`
	Description    string             `json:"description"`
	Status         string             `json:"status"`
	RawStatus      string             `json:"raw_status"`
	Priority       string             `json:"priority"`
	Owner          *string            `json:"owner"`
	Created        *string            `json:"created"`
	TargetDate     *string            `json:"target_date"`
	Progress       InitiativeProgress `json:"progress"`
	Phases         []InitiativePhase  `json:"phases"`
	WUs            []InitiativeWU     `json:"wus"`
	SuccessMetrics []string           `json:"success_metrics"`
	Labels         []string           `json:"labels"`
	RelatedPlan    *string            `json:"related_plan"`
	// Missing are the ids the wus list names whose spec is gone: shown, never counted in
	// progress or the derived status (docs/real-data.md).
	Missing []string `json:"missing"`
}

// InitiativePhase is one phase with the ids of its WUs.
type InitiativePhase struct {
	ID     int      `json:"id"`
	Title  string   `json:"title"`
	Status string   `json:"status"`
	WUs    []string `json:"wus"`
}

// InitiativeWU is one WU of the initiative.
type InitiativeWU struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Status string `json:"status"`
	Phase  *int   `json:"phase"`
}

// InitiativeStatus is corpus §3.5 initiative:status: an initiative (by id, then slug) with
// its derived status, progress, phases and WUs. WU files that do not parse are warnings
// and left out. Notes.Text is the whole text output.
func InitiativeStatus(ctx context.Context, ws *delivery.Workspace, in InitiativeStatusInput) (InitiativeStatusData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return InitiativeStatusData{}, notes, err
	}
	ini, err := delivery.ResolveInitiative(ws, in.Ref)
	if err != nil {
		return InitiativeStatusData{}, notes, err
	}
	all, err := readWUs(ws, &notes)
	if err != nil {
		return InitiativeStatusData{}, notes, err
	}
	wus, missing := delivery.InitiativeWUs(ini, all)
	d := InitiativeStatusData{ID: ini.ID, Slug: ini.Slug, Title: ini.Title, Description: ini.Description,
		Status: delivery.DerivedStatus(ini, wus), RawStatus: ini.Status, Priority: InitiativePriority(ini),
		Owner: strPtr(ini.Owner), Created: strPtr(ini.Created), TargetDate: strPtr(ini.TargetDate),
		Progress: ProgressOf(wus), Phases: []InitiativePhase{}, WUs: []InitiativeWU{},
		SuccessMetrics: orEmpty(ini.SuccessMetrics), Labels: orEmpty(ini.Labels), RelatedPlan: strPtr(ini.RelatedPlan),
		Missing: orEmpty(missing)}
	var text strings.Builder
	fmt.Fprintf(&text, "%s %s [%s]\n", d.ID, d.Title, d.Status)
	fmt.Fprintf(&text, "  progress: %d%% (%d/%d)\n", d.Progress.Percentage, d.Progress.Done, d.Progress.Total)
	phased := map[string]bool{}
	for _, p := range ini.Phases {
		sp := InitiativePhase{ID: p.ID, Title: p.Title, Status: p.Status, WUs: []string{}}
		fmt.Fprintf(&text, "Phase %d: %s [%s]\n", p.ID, p.Title, p.Status)
		for _, w := range wus {
			if w.Phase == p.ID && w.Phase != 0 {
				sp.WUs = append(sp.WUs, w.ID)
				phased[w.ID] = true
				fmt.Fprintf(&text, "  - %s %s %s\n", w.ID, w.NormStatus(), w.Title)
			}
		}
		d.Phases = append(d.Phases, sp)
	}
	var unphased []string
	for _, w := range wus {
		sw := InitiativeWU{ID: w.ID, Title: w.Title, Status: w.NormStatus()}
		if w.Phase != 0 {
			phase := w.Phase
			sw.Phase = &phase
		}
		d.WUs = append(d.WUs, sw)
		if !phased[w.ID] {
			unphased = append(unphased, fmt.Sprintf("  - %s %s %s\n", w.ID, w.NormStatus(), w.Title))
		}
	}
	if len(unphased) > 0 {
		text.WriteString("Unphased\n" + strings.Join(unphased, ""))
	}
	if len(missing) > 0 {
		text.WriteString("Missing (listed, no WU spec)\n")
		for _, id := range missing {
			fmt.Fprintf(&text, "  - %s\n", id)
		}
	}
	notes.Text = text.String()
	return d, notes, nil
}

// readWUs reads every WU spec; files that do not parse are recorded as warnings and left
// out (a listing must not fail on one bad file, and must not hide it either).
func readWUs(ws *delivery.Workspace, notes *Notes) ([]*delivery.WU, error) {
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return nil, err
	}
	wus := make([]*delivery.WU, 0, len(files))
	for _, f := range files {
		if f.Err != nil {
			notes.Warn("%s: %s", f.ID, delivery.AsError(f.Err).Message)
			continue
		}
		wus = append(wus, f.WU)
	}
	return wus, nil
}

// ProgressOf counts an initiative's WUs by normalised status; the percentage is
// round(100·done/total), 0 without WUs.
func ProgressOf(wus []*delivery.WU) InitiativeProgress {
	p := InitiativeProgress{Total: len(wus)}
	for _, w := range wus {
		switch w.NormStatus() {
		case delivery.StatusDone:
			p.Done++
		case delivery.StatusInProgress:
			p.InProgress++
		case delivery.StatusBlocked:
			p.Blocked++
		case delivery.StatusReady:
			p.Ready++
		}
	}
	if p.Total > 0 {
		p.Percentage = (200*p.Done + p.Total) / (2 * p.Total)
	}
	return p
}

// InitiativePriority is the initiative priority with its P2 default.
func InitiativePriority(in *delivery.Initiative) string {
	if in.Priority == "" {
		return "P2"
	}
	return in.Priority
}
