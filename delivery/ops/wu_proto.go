package ops

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// Fixed values of a prototype WU (corpus §3.1 wu:proto).
const (
	protoAcceptance = "Prototype demonstrates concept"
	protoNotes      = "Prototype WU - relaxed validation applies"
)

// WUProtoInput is wu:proto's input: what of the new WU the caller chooses, and how it is
// claimed.
type WUProtoInput struct {
	Lane, Title, Description string
	CodePaths, Labels        []string
	BranchOnly               bool
}

// WUProtoData is wu:proto's JSON data: the create step's commit and the claim's.
type WUProtoData struct {
	ID           string  `json:"id"`
	Path         string  `json:"path"`
	Lane         string  `json:"lane"`
	WorktreePath *string `json:"worktree_path"`
	Branch       *string `json:"branch"`
	CreateCommit *Commit `json:"create_commit"`
	Commit       *Commit `json:"commit"`
}

// WUProto is corpus §3.1 wu:proto: a prototype WU created with the relaxed rules (type
// prototype, P3, backend-only, fixed acceptance and notes), then claimed as wu:claim
// claims it; the claim's error is the result when it fails. Notes.Headline is the text
// headline; Commit is the claim's (rule R4), CreateCommit the create step's.
func WUProto(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUProtoInput) (WUProtoData, Notes, error) {
	var notes Notes
	w, created, err := CreateWU(ctx, ws, rt, &notes, CreateWUInput{Lane: in.Lane, Title: in.Title,
		Description: in.Description, Type: "prototype", Priority: "P3", Exposure: "backend-only",
		Acceptance: []string{protoAcceptance}, CodePaths: in.CodePaths, Labels: in.Labels, Notes: protoNotes})
	if err != nil {
		return WUProtoData{}, notes, err
	}
	claimed, err := ClaimWU(ctx, ws, rt, &notes, WUClaimInput{ID: w.ID, Lane: w.Lane, BranchOnly: in.BranchOnly})
	if err != nil {
		return WUProtoData{}, notes, err
	}
	notes.Headline = "Created and claimed " + w.ID + ": " + w.Title
	return WUProtoData{ID: w.ID, Path: w.Path, Lane: w.Lane, WorktreePath: claimed.WorktreePath, Branch: claimed.Branch,
		CreateCommit: created, Commit: claimed.Commit}, notes, nil
}
