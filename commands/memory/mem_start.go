package memory

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:start", Domain: "memory",
		New: newMemStartApp, Main: convention.Main(newMemStartApp)})
}

func newMemStartApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:start",
		Usage: "Record the start of an agent session on a WU as a memory node",
		Flags: []cli.Flag{
			convention.WU("wu", "work unit the session works on", true),
			&cli.StringFlag{Name: "agent-type", Usage: "kind of agent", Value: "unknown"},
			&cli.StringFlag{Name: "context-tier", Usage: "context tier the agent loaded", Value: "full"},
		},
		Action: memStart,
	})
}

func memStart(c *convention.Call) error {
	wu, agent, tier := c.Value("wu"), c.String("agent-type"), c.String("context-tier")
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	m, err := loadMemory(c, ws)
	if err != nil {
		return err
	}
	rt := c.Runtime()
	now := delivery.Timestamp(rt.Now())
	sessionID := delivery.NewID(rt, delivery.KindUUID, nil)
	content := fmt.Sprintf("Session started for %s. Agent: %s, Context: %s", wu, agent, tier)
	n := newNode(m, delivery.MemTypeSession, content, now, content+"-"+now+"-"+sessionID)
	n.WUID, n.SessionID = wu, sessionID
	n.Meta().Set("agentType", agent)
	n.Meta().Set("contextTier", tier)
	if err := delivery.AppendMemory(ws.Root, n); err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Started session %s for %s (%s)", sessionID, wu, n.ID), memStartData{Node: n})
}

// memStartData is mem:start's JSON data.
type memStartData struct {
	Node *delivery.MemNode `json:"node"`
}
