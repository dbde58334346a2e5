package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// InitiativeAddWUInput is initiative:add-wu's input.
type InitiativeAddWUInput struct {
	// Initiative is the initiative id or slug.
	Initiative string
	// WUs are the WU ids to link, in order (a repeated id counts once).
	WUs []string
	// Phase is the phase to set; 0 leaves the WUs' phases alone (a given phase is ≥ 1).
	Phase int
}

// Check rejects a malformed WU id (USAGE), before the workspace is opened.
func (in InitiativeAddWUInput) Check() error {
	for _, id := range in.WUs {
		if !delivery.ValidWUID(id) {
			return delivery.Errorf(tool.CodeUsage, "invalid value %q for --wu: expected WU-<number>", id)
		}
	}
	return nil
}

// InitiativeAddWUData is initiative:add-wu's JSON data.
type InitiativeAddWUData struct {
	Initiative    string   `json:"initiative"`
	Linked        []string `json:"linked"`
	AlreadyLinked []string `json:"already_linked"`
	Commit        *Commit  `json:"commit"`
}

// InitiativeAddWU is corpus §3.5 initiative:add-wu: it links the WUs to the initiative on
// both sides (ops.LinkWUs) and commits what changed. Re-linking is a no-op with no commit.
// Notes.Headline is "Linked WU-a, WU-b to <init>", or "Already linked to <init>".
func InitiativeAddWU(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in InitiativeAddWUInput) (InitiativeAddWUData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return InitiativeAddWUData{}, notes, err
	}
	ini, err := delivery.ResolveInitiative(ws, in.Initiative)
	if err != nil {
		return InitiativeAddWUData{}, notes, err
	}
	res, err := LinkWUs(ws, ini, in.WUs, in.Phase)
	if err != nil {
		return InitiativeAddWUData{}, notes, err
	}
	var cm *Commit
	if len(res.Paths) > 0 {
		subject := fmt.Sprintf("docs: link %s to %s", strings.ToLower(strings.Join(res.Linked, "")), strings.ToLower(ini.ID))
		if len(res.Linked) != 1 {
			subject = fmt.Sprintf("docs: link %d wus to %s", len(res.Linked), strings.ToLower(ini.ID))
		}
		if cm, err = CommitPaths(ctx, ws, rt, &notes, subject, res.Paths...); err != nil {
			return InitiativeAddWUData{}, notes, err
		}
	}
	notes.Headline = fmt.Sprintf("Linked %s to %s", strings.Join(res.Linked, ", "), ini.ID)
	if len(res.Linked) == 0 {
		notes.Headline = fmt.Sprintf("Already linked to %s", ini.ID)
	}
	return InitiativeAddWUData{Initiative: ini.ID, Linked: res.Linked, AlreadyLinked: res.Already, Commit: cm}, notes, nil
}
