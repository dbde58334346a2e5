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
	commands.Register(commands.Command{Name: "wu:unblock", Domain: "wu",
		New: newWUUnblockApp, Main: convention.Main(newWUUnblockApp)})
}

func newWUUnblockApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:unblock",
		Usage: "Return a blocked WU to in_progress",
		Flags: []cli.Flag{
			convention.WU("id", "WU to unblock", true),
			&cli.StringFlag{Name: "reason", Usage: "why the WU can continue (added to its notes)"},
		},
		Action: wuUnblock,
	})
}

func wuUnblock(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	if err := requireStatus(w, delivery.StatusInProgress, delivery.StatusBlocked); err != nil {
		return err
	}
	data := wuUnblockData{ID: w.ID, Status: delivery.StatusInProgress}
	// The lock comes first: a lane held by someone else fails before anything is written.
	if lockPolicy(ws, w.Lane) == delivery.LockActive {
		res, err := acquireLock(c, ws, w)
		if err != nil {
			return err
		}
		data.LockAcquired = res.Acquired
	}
	w.Set("status", delivery.StrNode(delivery.StatusInProgress))
	w.Delete("blocked_reason")
	if reason := c.String("reason"); reason != "" {
		appendNote(c, w, "Unblocked: "+reason)
	}
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return err
	}
	if err := appendEvent(c, ws, delivery.Event{Type: delivery.EventUnblock, WUID: w.ID}); err != nil {
		return err
	}
	if data.Commit, err = c.Commit(ws, fmt.Sprintf("wu(%s): unblock", strings.ToLower(w.ID)), w.Path, delivery.EventsFile); err != nil {
		return err
	}
	return c.Result("Unblocked "+w.ID, data)
}

// wuUnblockData is wu:unblock's JSON data.
type wuUnblockData struct {
	ID           string             `json:"id"`
	Status       string             `json:"status"`
	LockAcquired bool               `json:"lock_acquired"`
	Commit       *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d wuUnblockData) Committed() *convention.Commit { return d.Commit }
