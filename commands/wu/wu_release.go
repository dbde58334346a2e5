package wu

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:release",
		New: newWUReleaseApp, Main: convention.Main(newWUReleaseApp)})
}

func newWUReleaseApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:release",
		Usage: "Give up a claim and return the WU to ready",
		Flags: []cli.Flag{
			convention.WU("id", "WU to release", true),
			&cli.StringFlag{Name: "reason", Usage: "why the claim is given up", Value: "released via wu:release"},
			&cli.BoolFlag{Name: "remove-worktree", Usage: "remove the WU's worktree (its branch is kept)"},
		},
		Destructive: true,
		Action:      wuRelease,
	})
}

// claimKeys are the YAML fields a claim sets; releasing clears them.
var claimKeys = []string{"claimed_at", "claimed_mode", "claimed_branch", "worktree_path", "session_id", "blocked_reason"}

func wuRelease(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	if err := requireStatus(w, delivery.StatusReady, delivery.StatusInProgress); err != nil {
		return err
	}
	reason := c.String("reason")
	if strings.TrimSpace(reason) == "" {
		reason = "released via wu:release"
	}
	claim := *w // the claim fields are needed to find the worktree after they are cleared
	w.Set("status", delivery.StrNode(delivery.StatusReady))
	clearKeys(w, claimKeys...)
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return err
	}
	if err := appendEvent(c, ws, delivery.Event{Type: delivery.EventRelease, WUID: w.ID, Reason: reason}); err != nil {
		return err
	}
	data := wuReleaseData{ID: w.ID, Status: delivery.StatusReady, Reason: reason}
	if data.LockReleased, err = releaseLockFor(ws, w); err != nil {
		return err
	}
	if data.Commit, err = c.Commit(ws, fmt.Sprintf("wu(%s): release", strings.ToLower(w.ID)), w.Path, delivery.EventsFile); err != nil {
		return err
	}
	if c.Bool("remove-worktree") {
		data.WorktreeRemoved = removeWorktreeOrWarn(c, ws, &claim)
	}
	return c.Result("Released "+w.ID, data)
}

// wuReleaseData is wu:release's JSON data.
type wuReleaseData struct {
	ID              string             `json:"id"`
	Status          string             `json:"status"`
	Reason          string             `json:"reason"`
	LockReleased    bool               `json:"lock_released"`
	WorktreeRemoved bool               `json:"worktree_removed"`
	Commit          *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d wuReleaseData) Committed() *convention.Commit { return d.Commit }
