package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:cleanup",
		New: newWUCleanupApp, Main: convention.Main(newWUCleanupApp)})
}

func newWUCleanupApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "wu:cleanup",
		Usage:       "Remove the worktree, lane branch and lock left behind by a done WU",
		Destructive: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "the done WU to clean up", true),
		},
		Action: wuCleanup,
	})
}

func wuCleanup(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	if w.NormStatus() != delivery.StatusDone {
		return delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: only a done WU can be cleaned up", w.ID, w.NormStatus())
	}
	res, err := cleanupDone(c, ws, w, false)
	if err != nil {
		return err
	}
	return c.Result("Cleaned up "+w.ID, wuCleanupData{ID: w.ID, WorktreeRemoved: res.WorktreeRemoved,
		BranchDeleted: res.BranchDeleted, LockReleased: res.LockReleased})
}

// wuCleanupData is wu:cleanup's JSON data.
type wuCleanupData struct {
	ID              string `json:"id"`
	WorktreeRemoved bool   `json:"worktree_removed"`
	BranchDeleted   bool   `json:"branch_deleted"`
	LockReleased    bool   `json:"lock_released"`
}
