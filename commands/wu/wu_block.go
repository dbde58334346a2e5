package wu

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
)

func init() {
	commands.Register(commands.Command{Name: "wu:block", Domain: "wu",
		New: newWUBlockApp, Main: convention.Main(newWUBlockApp)})
}

func newWUBlockApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:block",
		Usage: "Mark an in-progress WU as blocked",
		Flags: []cli.Flag{
			convention.WU("id", "WU to block", true),
			nonEmpty("reason", "why the WU is blocked"),
			&cli.BoolFlag{Name: "remove-worktree", Usage: "remove the WU's worktree (its branch is kept)"},
		},
		Action: wuBlock,
	})
}

func wuBlock(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	if err := requireStatus(w, delivery.StatusBlocked, delivery.StatusInProgress); err != nil {
		return err
	}
	reason := c.Value("reason")
	w.Set("status", delivery.StrNode(delivery.StatusBlocked))
	w.Set("blocked_reason", delivery.StrNode(reason))
	appendNote(c, w, "Blocked: "+reason)
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return err
	}
	if err := appendEvent(c, ws, delivery.Event{Type: delivery.EventBlock, WUID: w.ID, Reason: reason}); err != nil {
		return err
	}
	data := wuBlockData{ID: w.ID, Status: delivery.StatusBlocked, Reason: reason}
	if lockPolicy(ws, w.Lane) == delivery.LockActive {
		if data.LockReleased, err = releaseLockFor(ws, w); err != nil {
			return err
		}
	}
	if data.Commit, err = c.Commit(ws, fmt.Sprintf("wu(%s): block", strings.ToLower(w.ID)), w.Path, delivery.EventsFile); err != nil {
		return err
	}
	if c.Bool("remove-worktree") {
		data.WorktreeRemoved = removeWorktreeOrWarn(c, ws, w)
	}
	return c.Result(fmt.Sprintf("Blocked %s: %s", w.ID, reason), data)
}

// wuBlockData is wu:block's JSON data.
type wuBlockData struct {
	ID              string             `json:"id"`
	Status          string             `json:"status"`
	Reason          string             `json:"reason"`
	LockReleased    bool               `json:"lock_released"`
	WorktreeRemoved bool               `json:"worktree_removed"`
	Commit          *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d wuBlockData) Committed() *convention.Commit { return d.Commit }
