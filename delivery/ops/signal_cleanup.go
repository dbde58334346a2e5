package ops

import (
	"context"
	"fmt"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// SignalCleanupKeys are the configuration sections signal:cleanup reads.
var SignalCleanupKeys = []string{"software_delivery.directories", "software_delivery.memory.signalCleanup"}

// SignalCleanupInput is signal:cleanup's input. A nil field is the configuration's value
// (memory.signalCleanup.ttl, unreadTtl, maxEntries).
type SignalCleanupInput struct {
	DryRun         bool
	TTL, UnreadTTL *time.Duration
	MaxEntries     *int
}

// SignalCleanupData is signal:cleanup's JSON data.
type SignalCleanupData struct {
	Removed []string `json:"removed"`
	Kept    int      `json:"kept"`
	DryRun  bool     `json:"dry_run"`
}

// SignalCleanup is corpus §3.2 signal:cleanup: signals linked to an in_progress or blocked
// WU are kept; otherwise read signals older than the TTL and unread ones older than the
// unread TTL go, then the oldest unprotected ones while more than the maximum remain.
// Unless DryRun, signals.jsonl is rewritten in order and the receipts of removed signals
// dropped (nothing is written when nothing is removed). No commit: runtime state.
// Notes.Headline is `Removed <r> signal(s), kept <k>`.
func SignalCleanup(_ context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in SignalCleanupInput) (SignalCleanupData, Notes, error) {
	var notes Notes
	p := DefaultSignalPolicy(ws.Config)
	if in.TTL != nil {
		p.TTL = *in.TTL
	}
	if in.UnreadTTL != nil {
		p.UnreadTTL = *in.UnreadTTL
	}
	if in.MaxEntries != nil {
		p.MaxEntries = *in.MaxEntries
	}
	removed, kept, err := cleanupSignals(ws, rt, &notes, p, in.DryRun)
	if err != nil {
		return SignalCleanupData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Removed %d signal(s), kept %d", len(removed), kept)
	return SignalCleanupData{Removed: removed, Kept: kept, DryRun: in.DryRun}, notes, nil
}
