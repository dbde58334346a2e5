package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// DelegationListInput is delegation:list's input: exactly one of WU and Initiative is
// given (the command's argv rules, checked by its shell before the workspace is opened).
type DelegationListInput struct {
	// WU lists the WU's delegations, expanded through their targets; "" lists those of
	// Initiative instead.
	WU string
	// Initiative is the initiative id or slug whose delegations are listed.
	Initiative string
}

// DelegationListData is delegation:list's JSON data, in tree order.
type DelegationListData struct {
	Delegations []DelegationRow `json:"delegations"`
}

// DelegationRow is one delegation of the tree at its depth.
type DelegationRow struct {
	ID          string  `json:"id"`
	Parent      string  `json:"parent"`
	Target      string  `json:"target"`
	Lane        string  `json:"lane"`
	Intent      string  `json:"intent"`
	Status      string  `json:"status"`
	DelegatedAt string  `json:"delegated_at"`
	CompletedAt *string `json:"completed_at"`
	Depth       int     `json:"depth"`
}

// DelegationList is corpus §3.5 delegation:list: the latest record per delegation id,
// sorted by delegatedAt, as a tree. With WU the roots are the WU's delegations; with
// Initiative the set is the delegations whose parent or target belongs to the initiative
// (a WU it lists without a spec file included), its roots those whose parent was not
// itself delegated within the set. A delegation cycle is listed once. Notes.Text is the
// whole text output (one line per delegation indented two spaces per depth, or "No
// delegations found.").
func DelegationList(ctx context.Context, ws *delivery.Workspace, in DelegationListInput) (DelegationListData, Notes, error) {
	var notes Notes
	reg, err := delivery.ReadDelegations(ws.Root)
	if err != nil {
		return DelegationListData{}, notes, err
	}
	for _, w := range reg.Warnings() {
		notes.Warn("%s", w)
	}
	recs := append([]delivery.Delegation(nil), reg.Records...)
	delivery.SortByDelegatedAt(recs)

	var set []delivery.Delegation
	var isRoot func(d delivery.Delegation) bool
	if in.WU != "" {
		set = recs
		isRoot = func(d delivery.Delegation) bool { return d.ParentWUID == in.WU }
	} else {
		ini, err := delivery.ResolveInitiative(ws, in.Initiative)
		if err != nil {
			return DelegationListData{}, notes, err
		}
		all, err := readWUs(ws, &notes)
		if err != nil {
			return DelegationListData{}, notes, err
		}
		wus, missing := delivery.InitiativeWUs(ini, all)
		member := map[string]bool{}
		for _, w := range wus {
			member[w.ID] = true
		}
		for _, id := range missing {
			member[id] = true // listed in wus without a spec file: still the initiative's
		}
		targets := map[string]bool{}
		for _, d := range recs {
			if member[d.ParentWUID] || member[d.TargetWUID] {
				set = append(set, d)
				targets[d.TargetWUID] = true
			}
		}
		// Roots are the delegations whose parent was not itself delegated within the set.
		isRoot = func(d delivery.Delegation) bool { return !targets[d.ParentWUID] }
	}
	data := DelegationListData{Delegations: []DelegationRow{}}
	var text strings.Builder
	seen := map[string]bool{}
	var walk func(d delivery.Delegation, depth int)
	walk = func(d delivery.Delegation, depth int) {
		if seen[d.ID] {
			return // a delegation cycle is listed once
		}
		seen[d.ID] = true
		data.Delegations = append(data.Delegations, DelegationRow{ID: d.ID, Parent: d.ParentWUID,
			Target: d.TargetWUID, Lane: d.Lane, Intent: d.Intent, Status: d.Status,
			DelegatedAt: d.DelegatedAt, CompletedAt: d.CompletedAt, Depth: depth})
		fmt.Fprintf(&text, "%s%s  %s -> %s  %s  %s\n", strings.Repeat("  ", depth), d.ID, d.ParentWUID,
			d.TargetWUID, d.Status, d.DelegatedAt)
		for _, child := range set {
			if child.ParentWUID == d.TargetWUID {
				walk(child, depth+1)
			}
		}
	}
	for _, d := range set {
		if isRoot(d) {
			walk(d, 0)
		}
	}
	if len(data.Delegations) == 0 {
		text.WriteString("No delegations found.\n")
	}
	notes.Text = text.String()
	return data, notes, nil
}
