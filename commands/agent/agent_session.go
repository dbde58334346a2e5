package agent

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "agent:session",
		New: newAgentSessionApp, Main: convention.Main(newAgentSessionApp)})
}

func newAgentSessionApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "agent:session",
		Usage: "Start an agent session on a WU (runtime state in .lumenflow/sessions/current.json)",
		Flags: []cli.Flag{
			convention.WU("wu", "the WU the session works on", true),
			requiredInt(convention.Int("tier", "context tier", 0, convention.Bound(1), convention.Bound(3))),
			&cli.StringFlag{Name: "agent-type", Usage: "agent type, also recorded as client type", Value: "claude-code"},
		},
		Action: agentSession,
	})
}

// requiredInt marks an INT flag required (it has no meaningful default).
func requiredInt(f *cli.IntFlag) *cli.IntFlag {
	f.Required = true
	return f
}

func agentSession(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.directories"); err != nil {
		return err
	}
	if cur, err := delivery.ReadSession(ws.Root); err != nil {
		return err
	} else if cur != nil {
		return c.Fail(tool.CodeAlreadyExists, fmt.Sprintf("session %s is active for %s (end it with agent:session-end)", cur.SessionID, cur.WUID),
			map[string]any{"session_id": cur.SessionID})
	}
	id := c.Value("wu")
	lane := "Unknown"
	w, err := delivery.ReadWU(ws, id)
	switch {
	case err == nil:
		lane = w.Lane
	case delivery.CodeOf(err) != tool.CodeNotFound:
		return err
	}
	rt := c.Runtime()
	s := &delivery.Session{
		SessionID:    delivery.NewID(rt, delivery.KindUUID, nil),
		WUID:         id,
		Lane:         lane,
		Started:      rt.NowString(),
		AgentType:    c.String("agent-type"),
		ClientType:   c.String("agent-type"),
		Capabilities: capabilities(c.Getenv("LUMENFLOW_AGENT_CAPABILITIES")),
		AgentVersion: envOr(c, "LUMENFLOW_AGENT_VERSION", "unknown"),
		HostID:       envOr(c, "HOSTNAME", "unknown"),
		ContextTier:  c.Int("tier"),
	}
	if err := delivery.WriteSession(ws.Root, s); err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Session %s started for %s (tier %d)", s.SessionID, id, s.ContextTier), sessionData{Session: s})
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

func envOr(c *convention.Call, key, def string) string {
	if v := c.Getenv(key); v != "" {
		return v
	}
	return def
}

// sessionData is agent:session's JSON data.
type sessionData struct {
	Session *delivery.Session `json:"session"`
}
