package ops

import (
	"context"
	"fmt"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// AgentSessionEndData is agent:session-end's JSON data.
type AgentSessionEndData struct {
	Ended   bool          `json:"ended"`
	Session *EndedSession `json:"session"`
}

// EndedSession is the final session report: the file's fields, then completed.
type EndedSession struct {
	*delivery.Session
	Completed string `json:"completed"`
}

// AgentSessionEnd is corpus §3.6 agent:session-end: the active session removed and reported
// with its incident counters. Ending when no session is active is not an error (ended
// false, Notes.Text says so); otherwise Notes.Headline is the text headline.
func AgentSessionEnd(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (AgentSessionEndData, Notes, error) {
	var notes Notes
	s, err := delivery.ReadSession(ws.Root)
	if err != nil {
		return AgentSessionEndData{}, notes, err
	}
	if s == nil {
		// Ending twice is not an error: the goal (no active session) already holds.
		notes.Text = "No active session.\n"
		return AgentSessionEndData{Ended: false}, notes, nil
	}
	if _, err := delivery.RemoveSession(ws.Root); err != nil {
		return AgentSessionEndData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Session %s ended for %s: %d incident(s), %d major", s.SessionID, s.WUID, s.IncidentsLogged, s.IncidentsMajor)
	return AgentSessionEndData{Ended: true, Session: &EndedSession{Session: s, Completed: rt.NowString()}}, notes, nil
}
