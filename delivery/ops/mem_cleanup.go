package ops

import (
	"context"
	"fmt"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// MemCleanupKeys are the configuration sections mem:cleanup reads.
var MemCleanupKeys = []string{"software_delivery.memory.sessionTtl"}

// MemCleanupInput is mem:cleanup's input.
type MemCleanupInput struct {
	DryRun bool
	// TTL replaces memory.sessionTtl when set.
	TTL       *time.Duration
	SessionID string
}

// MemCleanupData is mem:cleanup's JSON data.
type MemCleanupData struct {
	Removed     []string `json:"removed"`
	Kept        int      `json:"kept"`
	BytesBefore int64    `json:"bytes_before"`
	BytesAfter  int64    `json:"bytes_after"`
	DryRun      bool     `json:"dry_run"`
}

// MemCleanup is corpus §3.4 mem:cleanup: the ephemeral, deleted, summarised and expired
// nodes removed and memory.jsonl compacted (delivery.CleanupMemory), the lines it
// cannot read kept verbatim and reported as warnings. Notes.Headline is "Removed <n>
// node(s), kept <k> (<before> → <after> bytes)".
func MemCleanup(_ context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemCleanupInput) (MemCleanupData, Notes, error) {
	var notes Notes
	opts := delivery.CleanupOptions{TTL: ws.Config.SessionTTL, SessionID: in.SessionID, DryRun: in.DryRun}
	if in.TTL != nil {
		opts.TTL = *in.TTL
	}
	// Report the lines cleanup will keep verbatim because it cannot read them.
	if _, err := loadMemory(ws, &notes); err != nil {
		return MemCleanupData{}, notes, err
	}
	removed, kept, before, after, err := delivery.CleanupMemory(ws, rt, opts)
	if err != nil {
		return MemCleanupData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Removed %d node(s), kept %d (%d → %d bytes)", len(removed), kept, before, after)
	return MemCleanupData{Removed: removed, Kept: kept, BytesBefore: before, BytesAfter: after, DryRun: opts.DryRun}, notes, nil
}
