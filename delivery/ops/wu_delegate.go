package ops

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUDelegateInput is wu:delegate's input.
type WUDelegateInput struct {
	// ID is the target WU the sub-agent will do; ParentWU the WU delegating it.
	ID, ParentWU string
	// Client is the agent client ("": agents.defaultClient).
	Client string
	// NoContext leaves the memory context out of the brief.
	NoContext bool
}

// WUDelegateData is wu:delegate's JSON data.
type WUDelegateData struct {
	ID           string `json:"id"`
	ParentWU     string `json:"parent_wu"`
	DelegationID string `json:"delegation_id"`
	Prompt       string `json:"prompt"`
	PromptSHA256 string `json:"prompt_sha256"`
}

// WUDelegate is corpus §3.1 wu:delegate: the target WU's brief (as wu:brief builds it), a
// pending delegation recorded in the registry with the brief's attestation, and a
// delegation event. Registry lines that do not parse are warnings. It never commits.
// Notes.Text is the prompt; the legacy shell also prints a progress line.
func WUDelegate(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUDelegateInput) (WUDelegateData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUDelegateData{}, notes, err
	}
	if _, err := delivery.ReadWU(ws, in.ParentWU); err != nil {
		if delivery.CodeOf(err) == tool.CodeNotFound {
			return WUDelegateData{}, notes, delivery.Errorf(tool.CodeNotFound, "parent %s not found (%s)", in.ParentWU, ws.WUPath(in.ParentWU))
		}
		return WUDelegateData{}, notes, err
	}
	client, err := BriefClient(ws, in.Client)
	if err != nil {
		return WUDelegateData{}, notes, err
	}
	reg, err := delivery.ReadDelegations(ws.Root)
	if err != nil {
		return WUDelegateData{}, notes, err
	}
	for _, b := range reg.Bad {
		notes.Warn("%s", b.Warning("delegation-registry.jsonl"))
	}
	id := delivery.NewID(rt, delivery.KindDelegation, reg.Has)
	br, err := Brief(ws, rt, &notes, w, client, in.NoContext, false)
	if err != nil {
		return WUDelegateData{}, notes, err
	}
	now := delivery.Timestamp(rt.Now())
	rec := delivery.Delegation{ID: id, ParentWUID: in.ParentWU, TargetWUID: w.ID, Lane: w.Lane, Intent: "delegation",
		DelegatedAt: now, Status: "pending",
		BriefAttestation: &delivery.BriefAttestation{Algorithm: "sha256", PromptHash: br.SHA256, PromptLength: br.Length,
			GeneratedAt: now, ClientName: client}}
	if err := delivery.AppendDelegations(ws.Root, rec); err != nil {
		return WUDelegateData{}, notes, err
	}
	if err := AppendEvent(ws, rt, delivery.Event{Type: delivery.EventDelegation, WUID: w.ID,
		ParentWUID: in.ParentWU, DelegationID: id}); err != nil {
		return WUDelegateData{}, notes, err
	}
	notes.Text = br.Prompt
	return WUDelegateData{ID: w.ID, ParentWU: in.ParentWU, DelegationID: id, Prompt: br.Prompt, PromptSHA256: br.SHA256}, notes, nil
}
