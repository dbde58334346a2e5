package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// OrchestrateInitiativeInput is orchestrate:initiative's input without --progress (which
// is OrchestrateInitStatus).
type OrchestrateInitiativeInput struct {
	// Ref is the initiative id or slug (the command's --initiative).
	Ref string
	// DryRun plans only: no signal is sent and nothing is written.
	DryRun bool
}

// OrchestrateInitiativeData is orchestrate:initiative's JSON data.
type OrchestrateInitiativeData struct {
	Initiative  string              `json:"initiative"`
	Waves       [][]string          `json:"waves"`
	Skipped     []string            `json:"skipped"`
	Deferred    []delivery.Deferral `json:"deferred"`
	SignalsSent []string            `json:"signals_sent"`
}

// OrchestrateInitiative is corpus §3.5 orchestrate:initiative: the initiative's execution
// plan (delivery.PlanWaves: skipped, deferred, waves of at most one WU per lane; a cycle is
// VALIDATION) and, unless DryRun, one signal per wave-1 WU from sender orchestrator,
// skipped when the same message is already waiting unread. WU files that do not parse
// are warnings and left out. Notes.Text is the whole text output.
func OrchestrateInitiative(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in OrchestrateInitiativeInput) (OrchestrateInitiativeData, Notes, error) {
	var notes Notes
	ini, err := delivery.ResolveInitiative(ws, in.Ref)
	if err != nil {
		return OrchestrateInitiativeData{}, notes, err
	}
	all, err := readWUs(ws, &notes)
	if err != nil {
		return OrchestrateInitiativeData{}, notes, err
	}
	wus, _ := delivery.InitiativeWUs(ini, all)
	plan, err := delivery.PlanWaves(wus, all)
	if err != nil {
		return OrchestrateInitiativeData{}, notes, err
	}
	data := OrchestrateInitiativeData{Initiative: ini.ID, Waves: plan.Waves, Skipped: plan.Skipped,
		Deferred: plan.Deferred, SignalsSent: []string{}}
	if !in.DryRun && len(plan.Waves) > 0 {
		store, err := delivery.LoadSignals(ws.Root)
		if err != nil {
			return OrchestrateInitiativeData{}, notes, err
		}
		for _, w := range store.Warnings() {
			notes.Warn("%s", w)
		}
		unread := map[string]bool{}
		for _, s := range store.Effective() {
			if !s.Read {
				unread[s.Message] = true
			}
		}
		lanes := map[string]string{}
		for _, w := range wus {
			lanes[w.ID] = w.Lane
		}
		for _, id := range plan.Waves[0] {
			msg := fmt.Sprintf("%s is ready to start (%s wave 1)", id, ini.ID)
			if unread[msg] {
				continue // the same unread signal is already waiting
			}
			sig, err := delivery.SendSignal(ws.Root, rt, delivery.SignalInput{
				Message: msg, Sender: "orchestrator", WUID: id, Lane: lanes[id]})
			if err != nil {
				return OrchestrateInitiativeData{}, notes, err
			}
			data.SignalsSent = append(data.SignalsSent, sig.ID)
		}
	}
	var text strings.Builder
	for k, wave := range plan.Waves {
		fmt.Fprintf(&text, "Wave %d: %s\n", k+1, strings.Join(wave, ", "))
	}
	if len(plan.Waves) == 0 {
		text.WriteString("No waves found.\n")
	}
	if len(plan.Skipped) > 0 {
		fmt.Fprintf(&text, "Skipped: %s\n", strings.Join(plan.Skipped, ", "))
	}
	if len(plan.Deferred) > 0 {
		items := make([]string, len(plan.Deferred))
		for i, d := range plan.Deferred {
			items[i] = fmt.Sprintf("%s (%s)", d.ID, d.Reason)
		}
		fmt.Fprintf(&text, "Deferred: %s\n", strings.Join(items, ", "))
	}
	if len(data.SignalsSent) > 0 {
		fmt.Fprintf(&text, "Signalled: %s\n", strings.Join(data.SignalsSent, ", "))
	}
	notes.Text = text.String()
	return data, notes, nil
}
