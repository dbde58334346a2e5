package wu

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:prune",
		New: newWUPruneApp, Main: convention.Main(newWUPruneApp)})
}

func newWUPruneApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "wu:prune",
		Usage:       "Classify the WU worktrees and, with --execute, remove the stale ones of done WUs",
		Destructive: true,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "execute", Usage: "act (the default is a read-only dry run)"},
		},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("execute"))},
		Action:  wuPrune,
	})
}

// Worktree classes and actions of wu:prune.
const (
	pruneOrphan    = "orphan"
	pruneStale     = "stale"
	pruneBadBranch = "bad_branch"
	pruneOK        = "ok"
)

var worktreeWURe = regexp.MustCompile(`-wu-(\d+)$`)

func wuPrune(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	ctx := c.Context()
	execute := c.Bool("execute")
	data := wuPruneData{Worktrees: []pruneEntry{}, Executed: execute}
	if !delivery.InWorkTree(ctx, ws.Root) {
		return c.Print(convention.Table("worktrees", pruneHeader, nil), data)
	}
	g := delivery.NewGit(ws.Root, c.Runtime())
	list, err := g.WorktreeList(ctx)
	if err != nil {
		return err
	}
	parent := canonicalPath(ws.Abs(strings.TrimSuffix(ws.Config.WorktreesDir, "/")))
	root := canonicalPath(ws.Root)
	if execute {
		if _, err := g.Output(ctx, "worktree", "prune"); err != nil {
			return err
		}
	}
	var rows [][]string
	for _, wt := range list {
		p := canonicalPath(wt.Path)
		if filepath.Dir(p) != parent {
			continue
		}
		rel, _ := filepath.Rel(root, p)
		e := pruneEntry{Path: filepath.ToSlash(rel), Branch: strPtr(wt.Branch), Action: "none"}
		var w *delivery.WU
		if m := worktreeWURe.FindStringSubmatch(path.Base(e.Path)); m != nil {
			id := "WU-" + m[1]
			e.WUID = &id
			w, _ = delivery.ReadWU(ws, id)
		}
		switch {
		case w == nil:
			e.Class, e.Action = pruneOrphan, "report"
		case w.NormStatus() != delivery.StatusInProgress && w.NormStatus() != delivery.StatusBlocked:
			e.Class = pruneStale
		case wt.Branch != ws.LaneBranch(w.Lane, w.ID):
			e.Class, e.Action = pruneBadBranch, "report"
		default:
			e.Class = pruneOK
		}
		if w != nil {
			st := w.NormStatus()
			e.WUStatus = &st
		}
		if wt.Prunable {
			e.Action = "prune"
			if execute {
				e.Action = "pruned"
			}
		} else if e.Class == pruneStale {
			e.Action = pruneStaleAction(c, ws, g, w, e.Path, execute)
		}
		data.Worktrees = append(data.Worktrees, e)
		rows = append(rows, []string{e.Path, dash(deref(e.WUID)), dash(deref(e.WUStatus)), e.Class, e.Action})
	}
	return c.Print(convention.Table("worktrees", pruneHeader, rows), data)
}

var pruneHeader = []string{"path", "wu", "status", "class", "action"}

// pruneStaleAction decides (and with execute performs) what happens to a stale worktree:
// only a clean worktree of a done WU is removed; a dirty one is kept with a warning.
func pruneStaleAction(c *convention.Call, ws *delivery.Workspace, g *delivery.Git, w *delivery.WU, rel string, execute bool) string {
	if w.NormStatus() != delivery.StatusDone {
		return "report"
	}
	dirty, err := (&delivery.Git{Dir: ws.Abs(rel)}).Dirty(c.Context())
	if err != nil || dirty {
		if execute {
			c.Warn("worktree %s has uncommitted changes: kept", rel)
		}
		return "keep_dirty"
	}
	if !execute {
		return "remove"
	}
	if err := g.WorktreeRemove(c.Context(), rel, false); err != nil {
		c.Warn("worktree %s not removed: %s", rel, delivery.AsError(err).Message)
		return "remove_failed"
	}
	return "removed"
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// wuPruneData is wu:prune's JSON data.
type wuPruneData struct {
	Worktrees []pruneEntry `json:"worktrees"`
	Executed  bool         `json:"executed"`
}

// pruneEntry is one worktree under the worktrees directory.
type pruneEntry struct {
	Path     string  `json:"path"`
	Branch   *string `json:"branch"`
	WUID     *string `json:"wu_id"`
	WUStatus *string `json:"wu_status"`
	Class    string  `json:"class"`
	Action   string  `json:"action"`
}
