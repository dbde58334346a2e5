package wu

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
)

func init() {
	commands.Register(commands.Command{Name: "wu:status", Domain: "wu",
		New: newWUStatusApp, Main: convention.Main(newWUStatusApp)})
}

func newWUStatusApp() *cli.App {
	app := convention.App(convention.Spec{
		Name:     "wu:status",
		Usage:    "Show one WU with its event state, lock, worktree and location",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "WU to show (default: inferred from the lane branch)", false),
		},
		Args:   []convention.Arg{{Name: "id"}},
		Action: wuStatus,
	})
	// The positional is a WU too: a malformed one is a usage error, like the flag.
	app.Before = func(cctx *cli.Context) error {
		if id := cctx.Args().First(); id != "" && !delivery.ValidWUID(id) {
			return fmt.Errorf("invalid value %q for ID: expected WU-<number>", id)
		}
		return nil
	}
	return app
}

func wuStatus(c *convention.Call) error {
	ctx := c.Context()
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	id := c.Value("id")
	if id == "" {
		id = c.Arg("id")
	}
	checkout := delivery.NewGit(ws.Checkout, c.Runtime())
	inGit := delivery.InWorkTree(ctx, ws.Checkout)
	if id == "" {
		if inGit {
			branch, _ := checkout.CurrentBranch(ctx)
			if _, wuID, ok := delivery.ParseLaneBranch(ws.Config.LaneBranchPrefix, branch); ok {
				id = wuID
			}
		}
		if id == "" {
			return c.Failf(tool.CodeNotFound, "no WU id given and none inferable from the current branch")
		}
	}
	w, err := delivery.ReadWU(ws, id)
	if err != nil {
		return err
	}
	log, err := loadEvents(c, ws)
	if err != nil {
		return err
	}
	data := wuStatusData{ID: w.ID, Title: w.Title, Lane: w.Lane, Type: w.Type, Priority: w.Priority,
		Status: w.NormStatus(), ClaimedMode: strPtr(w.ClaimedMode), WorktreePath: strPtr(w.WorktreePath),
		Branch: strPtr(w.ClaimedBranch), Initiative: strPtr(w.Initiative), BlockedBy: []statusDep{},
		Location: statusLocation{Type: "main"}}
	es, has := log.State(w.ID)
	if has {
		data.EventStatus = &es
	}
	data.Consistent = delivery.Consistent(es, has, w.Status)
	issues, err := diagnose(c, ws, w, log)
	if err != nil {
		return err
	}
	if len(issues) > 0 {
		data.Inconsistency = &issues[0].Code
	}
	data.WorktreeExists = w.WorktreePath != "" && exists(ws, w.WorktreePath)
	if w.ClaimedBranch != "" && delivery.InWorkTree(ctx, ws.Root) {
		data.BranchExists = delivery.NewGit(ws.Root, c.Runtime()).BranchExists(ctx, w.ClaimedBranch)
	}
	if lk, err := lanelock.Read(ws.Root, w.Lane); err != nil {
		return delivery.Errorf(tool.CodeIOError, "read lock of %s: %w", w.Lane, err)
	} else if lk != nil && lk.WUID == w.ID {
		data.Lock = &statusLock{Owner: lk.Owner, WUID: lk.WUID, Timestamp: lk.Timestamp,
			Stale: lk.Stale(c.Runtime().Now(), c.Runtime().StaleThreshold())}
	}
	var deps []string
	for _, dep := range w.BlockedBy {
		s := "missing"
		if d, err := delivery.ReadWU(ws, dep); err == nil {
			s = d.NormStatus()
		}
		data.BlockedBy = append(data.BlockedBy, statusDep{ID: dep, Status: s})
		deps = append(deps, fmt.Sprintf("%s (%s)", dep, s))
	}
	if ws.Checkout != ws.Root {
		data.Location.Type = "worktree"
	}
	if inGit {
		if b, err := checkout.CurrentBranch(ctx); err == nil {
			data.Location.GitBranch = strPtr(b)
		}
		data.Location.Dirty, _ = checkout.Dirty(ctx)
	}
	if c.JSON {
		return c.Print("", data)
	}
	fields, err := convention.Fields(data)
	if err != nil {
		return fmt.Errorf("render wu:status: %w", err)
	}
	text := fmt.Sprintf("%s: %s\n", w.ID, w.Title) + fields
	if len(deps) > 0 {
		text += "  blocked_by: " + strings.Join(deps, ", ") + "\n"
	}
	return c.Print(text, data)
}

// wuStatusData is wu:status's JSON data.
type wuStatusData struct {
	ID             string         `json:"id"`
	Title          string         `json:"title"`
	Lane           string         `json:"lane"`
	Type           string         `json:"type"`
	Priority       string         `json:"priority"`
	Status         string         `json:"status"`
	EventStatus    *string        `json:"event_status"`
	Consistent     bool           `json:"consistent"`
	Inconsistency  *string        `json:"inconsistency"`
	ClaimedMode    *string        `json:"claimed_mode"`
	WorktreePath   *string        `json:"worktree_path"`
	WorktreeExists bool           `json:"worktree_exists"`
	Branch         *string        `json:"branch"`
	BranchExists   bool           `json:"branch_exists"`
	Lock           *statusLock    `json:"lock"`
	BlockedBy      []statusDep    `json:"blocked_by"`
	Initiative     *string        `json:"initiative"`
	Location       statusLocation `json:"location"`
}

type statusLock struct {
	Owner     string `json:"owner"`
	WUID      string `json:"wu_id"`
	Timestamp string `json:"timestamp"`
	Stale     bool   `json:"stale"`
}

type statusDep struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

type statusLocation struct {
	Type      string  `json:"type"`
	GitBranch *string `json:"git_branch"`
	Dirty     bool    `json:"dirty"`
}
