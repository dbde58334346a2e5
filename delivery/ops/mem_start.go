package ops

import (
	"context"
	"fmt"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// MemStartInput is mem:start's input. The shells apply the command's flag defaults
// (AgentType "unknown", ContextTier "full"): a given "" is recorded as it is.
type MemStartInput struct {
	// WU is the work unit the session works on (required; its form is the shell's check).
	WU                     string
	AgentType, ContextTier string
}

// MemStartData is mem:start's JSON data.
type MemStartData struct {
	Node *delivery.MemNode `json:"node"`
}

// MemStart is corpus §3.4 mem:start: a session node (lifecycle wu) appended with a new
// session uuid, the content "Session started for <wu>. Agent: <agent>, Context: <tier>",
// metadata {agentType, contextTier} and the id basis <content>-<created_at>-<session_id>.
// Notes.Headline is "Started session <session_id> for <wu> (<node id>)".
func MemStart(_ context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemStartInput) (MemStartData, Notes, error) {
	var notes Notes
	m, err := loadMemory(ws, &notes)
	if err != nil {
		return MemStartData{}, notes, err
	}
	now := delivery.Timestamp(rt.Now())
	sessionID := delivery.NewID(rt, delivery.KindUUID, nil)
	content := fmt.Sprintf("Session started for %s. Agent: %s, Context: %s", in.WU, in.AgentType, in.ContextTier)
	n := newNode(m, delivery.MemTypeSession, content, now, content+"-"+now+"-"+sessionID)
	n.WUID, n.SessionID = in.WU, sessionID
	n.Meta().Set("agentType", in.AgentType)
	n.Meta().Set("contextTier", in.ContextTier)
	if err := delivery.AppendMemory(ws.Root, n); err != nil {
		return MemStartData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Started session %s for %s (%s)", sessionID, in.WU, n.ID)
	return MemStartData{Node: n}, notes, nil
}
