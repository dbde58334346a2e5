package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// AgentSessionInput is agent:session's input.
type AgentSessionInput struct {
	// WU is the WU the session works on (the shell has checked its form).
	WU string
	// Tier is the context tier, 1 to 3 (the shell has checked the bounds).
	Tier int
	// AgentType is the agent type, also recorded as the client type.
	AgentType string
}

// AgentSessionData is agent:session's JSON data.
type AgentSessionData struct {
	Session *delivery.Session `json:"session"`
}

// AgentSession is corpus §3.6 agent:session: a new session on WU written to the
// current-session file, unless one is active (ALREADY_EXISTS, naming it). The WU need not
// exist (its lane is then "Unknown"). Capabilities, agent version and host come from
// LUMENFLOW_AGENT_CAPABILITIES, LUMENFLOW_AGENT_VERSION and HOSTNAME in the runtime's
// environment. It never commits. Notes.Headline is the text headline.
func AgentSession(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in AgentSessionInput) (AgentSessionData, Notes, error) {
	var notes Notes
	if err := ws.Config.Check("software_delivery.directories"); err != nil {
		return AgentSessionData{}, notes, err
	}
	if cur, err := delivery.ReadSession(ws.Root); err != nil {
		return AgentSessionData{}, notes, err
	} else if cur != nil {
		return AgentSessionData{}, notes, (&delivery.Error{Code: tool.CodeAlreadyExists,
			Message: fmt.Sprintf("session %s is active for %s (end it with agent:session-end)", cur.SessionID, cur.WUID)}).
			WithDetails(map[string]any{"session_id": cur.SessionID})
	}
	lane := "Unknown"
	w, err := delivery.ReadWU(ws, in.WU)
	switch {
	case err == nil:
		lane = w.Lane
	case delivery.CodeOf(err) != tool.CodeNotFound:
		return AgentSessionData{}, notes, err
	}
	getenv := func(key string) string {
		if env := rt.Env(); env != nil {
			v, _ := env(key)
			return v
		}
		return ""
	}
	or := func(v, def string) string {
		if v == "" {
			return def
		}
		return v
	}
	s := &delivery.Session{
		SessionID:    delivery.NewID(rt, delivery.KindUUID, nil),
		WUID:         in.WU,
		Lane:         lane,
		Started:      rt.NowString(),
		AgentType:    in.AgentType,
		ClientType:   in.AgentType,
		Capabilities: capabilities(getenv("LUMENFLOW_AGENT_CAPABILITIES")),
		AgentVersion: or(getenv("LUMENFLOW_AGENT_VERSION"), "unknown"),
		HostID:       or(getenv("HOSTNAME"), "unknown"),
		ContextTier:  in.Tier,
	}
	if err := delivery.WriteSession(ws.Root, s); err != nil {
		return AgentSessionData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Session %s started for %s (tier %d)", s.SessionID, in.WU, s.ContextTier)
	return AgentSessionData{Session: s}, notes, nil
}

// capabilities splits LUMENFLOW_AGENT_CAPABILITIES (a comma list), defaulting to the two
// capabilities every delivery agent has.
func capabilities(v string) []string {
	out := []string{}
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return []string{"session_lifecycle", "incident_logging"}
	}
	return out
}
