package memory

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func init() {
	commands.Register(commands.Command{Name: "mem:checkpoint", Domain: "memory",
		New: newMemCheckpointApp, Main: convention.Main(newMemCheckpointApp)})
}

func newMemCheckpointApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:checkpoint",
		Usage: "Record a progress checkpoint as a memory node (and a WU checkpoint event)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "note", Usage: "what was achieved (non-empty)", Required: true},
			convention.WU("wu", "work unit (default: the current session's)", false),
			&cli.StringFlag{Name: "session", Usage: "session uuid (default: the current session's)"},
			&cli.StringFlag{Name: "progress", Usage: "progress summary"},
			&cli.StringFlag{Name: "next-steps", Usage: "what comes next"},
		},
		Action: memCheckpoint,
	})
}

func memCheckpoint(c *convention.Call) error {
	note := c.String("note")
	if strings.TrimSpace(note) == "" {
		return c.Failf(tool.CodeValidation, "--note must not be empty")
	}
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	wu, session := sessionDefaults(c, ws, c.Value("wu"), c.String("session"))
	m, err := loadMemory(c, ws)
	if err != nil {
		return err
	}
	now := delivery.Timestamp(c.Runtime().Now())
	content := "Checkpoint: " + note
	n := newNode(m, delivery.MemTypeCheckpoint, content, now, content+"-"+now)
	n.WUID, n.SessionID = wu, session
	progress, next := c.String("progress"), c.String("next-steps")
	if progress != "" {
		n.Meta().Set("progress", progress)
	}
	if next != "" {
		n.Meta().Set("nextSteps", next)
	}
	// The event goes to the WU's log only when the WU exists: a checkpoint must not invent
	// events for a WU the log cannot replay.
	withEvent := false
	if wu != "" {
		if _, err := os.Stat(ws.Abs(ws.WUPath(wu))); err == nil {
			withEvent = true
		}
	}
	if err := delivery.AppendMemory(ws.Root, n); err != nil {
		return err
	}
	if withEvent {
		ev := delivery.Event{Type: delivery.EventCheckpoint, WUID: wu, Timestamp: now, Note: note,
			SessionID: session, Progress: progress, NextSteps: next}
		if err := delivery.AppendEvents(ws.Root, ev); err != nil {
			return err
		}
	}
	return c.Result(fmt.Sprintf("Checkpoint %s recorded", n.ID), memCheckpointData{Node: n, EventAppended: withEvent})
}

// memCheckpointData is mem:checkpoint's JSON data.
type memCheckpointData struct {
	Node          *delivery.MemNode `json:"node"`
	EventAppended bool              `json:"event_appended"`
}
