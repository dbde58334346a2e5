package wu

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
)

func init() {
	commands.Register(commands.Command{Name: "wu:claim", Domain: "wu",
		New: newWUClaimApp, Main: convention.Main(newWUClaimApp)})
}

func newWUClaimApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:claim",
		Usage: "Claim a ready WU: lock its lane, mark it in_progress and create its worktree",
		Flags: []cli.Flag{
			convention.WU("id", "WU to claim", true),
			&cli.StringFlag{Name: "lane", Usage: "lane of the WU (must match its spec)", Required: true},
			&cli.BoolFlag{Name: "branch-only", Usage: "work in the main checkout instead of a worktree"},
			&cli.BoolFlag{Name: "force", Usage: "skip the dependency and WIP checks (never the lock)"},
		},
		Action: wuClaim,
	})
}

func wuClaim(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	res, err := claimWU(c, ws, claimInput{ID: c.Value("id"), Lane: c.String("lane"),
		BranchOnly: c.Bool("branch-only"), Force: c.Bool("force")})
	if err != nil {
		return err
	}
	w := res.WU
	return c.Result(fmt.Sprintf("Claimed %s (%s)", w.ID, w.Lane), wuClaimData{ID: w.ID, Lane: w.Lane,
		Status: w.NormStatus(), ClaimedMode: res.Mode, WorktreePath: res.WorktreePath, Branch: res.Branch,
		SessionID: res.SessionID, LockPath: res.LockPath, Commit: res.Commit})
}

// wuClaimData is wu:claim's JSON data.
type wuClaimData struct {
	ID           string             `json:"id"`
	Lane         string             `json:"lane"`
	Status       string             `json:"status"`
	ClaimedMode  string             `json:"claimed_mode"`
	WorktreePath *string            `json:"worktree_path"`
	Branch       *string            `json:"branch"`
	SessionID    string             `json:"session_id"`
	LockPath     *string            `json:"lock_path"`
	Commit       *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d wuClaimData) Committed() *convention.Commit { return d.Commit }
