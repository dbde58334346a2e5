package ops

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// MemCheckpointInput is mem:checkpoint's input. WU and Session default to the current
// session's when WU is "". Caller is the call's authenticated subject (tool.Env.Caller;
// CMDBRIDGE_CALLER for the legacy command), "" when the command runs by hand.
type MemCheckpointInput struct {
	Note, WU, Session, Progress, NextSteps string
	Caller                                 string
}

// Check rejects a blank note (VALIDATION), before the workspace is opened.
func (in MemCheckpointInput) Check() error {
	if strings.TrimSpace(in.Note) == "" {
		return delivery.Errorf(tool.CodeValidation, "--note must not be empty")
	}
	return nil
}

// MemCheckpointData is mem:checkpoint's JSON data.
type MemCheckpointData struct {
	Node          *delivery.MemNode `json:"node"`
	EventAppended bool              `json:"event_appended"`
}

// MemCheckpoint is corpus §3.4 mem:checkpoint: a checkpoint memory node, and a checkpoint
// event in the WU's log when the WU exists (a checkpoint must not invent events for a
// WU the log cannot replay). Notes.Headline is "Checkpoint <id> recorded".
func MemCheckpoint(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemCheckpointInput) (MemCheckpointData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return MemCheckpointData{}, notes, err
	}
	wu, session := SessionDefaults(ws, &notes, in.WU, in.Session)
	m, err := loadMemory(ws, &notes)
	if err != nil {
		return MemCheckpointData{}, notes, err
	}
	now := delivery.Timestamp(rt.Now())
	content := "Checkpoint: " + in.Note
	n := newNode(m, delivery.MemTypeCheckpoint, content, now, content+"-"+now)
	n.WUID, n.SessionID = wu, session
	if in.Progress != "" {
		n.Meta().Set("progress", in.Progress)
	}
	if in.NextSteps != "" {
		n.Meta().Set("nextSteps", in.NextSteps)
	}
	if in.Caller != "" {
		// The session is a correlation id anyone may name; who recorded the
		// checkpoint is the authenticated caller.
		n.Meta().Set("caller", in.Caller)
	}
	withEvent := false
	if wu != "" {
		if _, err := os.Stat(ws.Abs(ws.WUPath(wu))); err == nil {
			withEvent = true
		}
	}
	if err := delivery.AppendMemory(ws.Root, n); err != nil {
		return MemCheckpointData{}, notes, err
	}
	if withEvent {
		ev := delivery.Event{Type: delivery.EventCheckpoint, WUID: wu, Timestamp: now, Note: in.Note,
			SessionID: session, Progress: in.Progress, NextSteps: in.NextSteps}
		if err := delivery.AppendEvents(ws.Root, ev); err != nil {
			return MemCheckpointData{}, notes, err
		}
	}
	notes.Headline = fmt.Sprintf("Checkpoint %s recorded", n.ID)
	return MemCheckpointData{Node: n, EventAppended: withEvent}, notes, nil
}
