package agent

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "agent:session-end",
		New: newAgentSessionEndApp, Main: convention.Main(newAgentSessionEndApp)})
}

func newAgentSessionEndApp() *cli.App {
	return convention.App(convention.Spec{
		Name:       "agent:session-end",
		Usage:      "End the active agent session and report its incident counters",
		Idempotent: true,
		Action:     agentSessionEnd,
	})
}

func agentSessionEnd(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	s, err := delivery.ReadSession(ws.Root)
	if err != nil {
		return err
	}
	if s == nil {
		// Ending twice is not an error: the goal (no active session) already holds.
		return c.Print("No active session.\n", sessionEndData{Ended: false})
	}
	if _, err := delivery.RemoveSession(ws.Root); err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Session %s ended for %s: %d incident(s), %d major", s.SessionID, s.WUID, s.IncidentsLogged, s.IncidentsMajor),
		sessionEndData{Ended: true, Session: &endedSession{Session: s, Completed: c.Runtime().NowString()}})
}

// sessionEndData is agent:session-end's JSON data.
type sessionEndData struct {
	Ended   bool          `json:"ended"`
	Session *endedSession `json:"session"`
}

// endedSession is the final session report: the file's fields, then completed.
type endedSession struct {
	*delivery.Session
	Completed string `json:"completed"`
}
