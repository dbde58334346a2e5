package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUStatusInput is wu:status's input.
type WUStatusInput struct {
	// ID is the WU to show; "" infers it from the lane branch of the current checkout.
	ID string
}

// WUStatusData is wu:status's JSON data.
type WUStatusData struct {
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
	Lock           *StatusLock    `json:"lock"`
	BlockedBy      []StatusDep    `json:"blocked_by"`
	Initiative     *string        `json:"initiative"`
	Location       StatusLocation `json:"location"`
}

// StatusLock is the lane lock held for the WU.
type StatusLock struct {
	Owner     string `json:"owner"`
	WUID      string `json:"wu_id"`
	Timestamp string `json:"timestamp"`
	Stale     bool   `json:"stale"`
}

// StatusDep is one dependency of the WU with its normalised status ("missing" when its
// file cannot be read).
type StatusDep struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// StatusLocation is where the command ran: the main checkout or a worktree.
type StatusLocation struct {
	Type      string  `json:"type"`
	GitBranch *string `json:"git_branch"`
	Dirty     bool    `json:"dirty"`
}

// WUStatus is corpus §3.1 wu:status: one WU with its event state, first inconsistency,
// lock, worktree, dependencies and the caller's location. It only reads. Notes.Headline
// is "<id>: <title>"; Notes.Text is the line printed after the fields
// ("  blocked_by: WU-1 (done), …\n", or "" without dependencies).
func WUStatus(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUStatusInput) (WUStatusData, Notes, error) {
	var notes Notes
	id := in.ID
	checkout := delivery.NewGit(ws.Checkout, rt)
	inGit := gitrepo.InWorkTree(ctx, ws.Checkout)
	if id == "" {
		if inGit {
			branch, _ := checkout.CurrentBranch(ctx)
			if _, wuID, ok := delivery.ParseLaneBranch(ws.Config.LaneBranchPrefix, branch); ok {
				id = wuID
			}
		}
		if id == "" {
			return WUStatusData{}, notes, delivery.Errorf(tool.CodeNotFound, "no WU id given and none inferable from the current branch")
		}
	}
	w, err := delivery.ReadWU(ws, id)
	if err != nil {
		return WUStatusData{}, notes, err
	}
	log, err := loadEvents(ws, &notes)
	if err != nil {
		return WUStatusData{}, notes, err
	}
	data := WUStatusData{ID: w.ID, Title: w.Title, Lane: w.Lane, Type: w.Type, Priority: w.Priority,
		Status: w.NormStatus(), ClaimedMode: strPtr(w.ClaimedMode), WorktreePath: strPtr(w.WorktreePath),
		Branch: strPtr(w.ClaimedBranch), Initiative: strPtr(w.Initiative), BlockedBy: []StatusDep{},
		Location: StatusLocation{Type: "main"}}
	es, has := log.State(w.ID)
	if has {
		data.EventStatus = &es
	}
	data.Consistent = delivery.Consistent(es, has, w.Status)
	issues, err := Diagnose(ws, rt, w, log)
	if err != nil {
		return WUStatusData{}, notes, err
	}
	if len(issues) > 0 {
		data.Inconsistency = &issues[0].Code
	}
	data.WorktreeExists = w.WorktreePath != "" && exists(ws, w.WorktreePath)
	if w.ClaimedBranch != "" && gitrepo.InWorkTree(ctx, ws.Root) {
		data.BranchExists = delivery.NewGit(ws.Root, rt).BranchExists(ctx, w.ClaimedBranch)
	}
	if lk, err := lanelock.Read(ws.Root, w.Lane); err != nil {
		return WUStatusData{}, notes, delivery.Errorf(tool.CodeIOError, "read lock of %s: %w", w.Lane, err)
	} else if lk != nil && lk.WUID == w.ID {
		data.Lock = &StatusLock{Owner: lk.Owner, WUID: lk.WUID, Timestamp: lk.Timestamp,
			Stale: lk.Stale(rt.Now(), rt.StaleThreshold())}
	}
	var deps []string
	for _, dep := range w.BlockedBy {
		s := "missing"
		if d, err := delivery.ReadWU(ws, dep); err == nil {
			s = d.NormStatus()
		}
		data.BlockedBy = append(data.BlockedBy, StatusDep{ID: dep, Status: s})
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
	notes.Headline = fmt.Sprintf("%s: %s", w.ID, w.Title)
	if len(deps) > 0 {
		notes.Text = "  blocked_by: " + strings.Join(deps, ", ") + "\n"
	}
	return data, notes, nil
}

// Issue is one inconsistency of a WU (codes shared by wu:status, wu:recover, wu:repair
// and state:doctor; corpus §3.1 wu:recover).
type Issue struct {
	Code    string
	Message string
}

// Diagnose lists the inconsistencies between a WU's YAML, its event state, stamp,
// worktree and lane lock, in the spec's code order. It only reads.
func Diagnose(ws *delivery.Workspace, rt *delivery.Runtime, w *delivery.WU, log *delivery.EventLog) ([]Issue, error) {
	var out []Issue
	status := w.NormStatus()
	if es, has := log.State(w.ID); !delivery.Consistent(es, has, w.Status) {
		out = append(out, Issue{"STATUS_MISMATCH", fmt.Sprintf("YAML status is %s but the event state is %s", status, es)})
	}
	wtExists := w.WorktreePath != "" && exists(ws, w.WorktreePath)
	if status == delivery.StatusInProgress && w.ClaimedMode == "worktree" && w.WorktreePath != "" && !wtExists {
		out = append(out, Issue{"MISSING_WORKTREE_CLAIMED", fmt.Sprintf("worktree %s is missing", w.WorktreePath)})
	}
	if status == delivery.StatusDone && wtExists {
		out = append(out, Issue{"ORPHAN_WORKTREE_DONE", fmt.Sprintf("worktree %s remains after done", w.WorktreePath)})
	}
	stamp := delivery.StampExists(ws.Root, w.ID)
	if stamp && status != delivery.StatusDone {
		out = append(out, Issue{"STAMP_EXISTS_YAML_NOT_DONE", fmt.Sprintf("stamp exists but YAML status is %s", status)})
	}
	if !stamp && status == delivery.StatusDone {
		out = append(out, Issue{"YAML_DONE_NO_STAMP", "YAML status is done but the stamp is missing"})
	}
	lk, err := lanelock.Read(ws.Root, w.Lane)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "read lock of %s: %w", w.Lane, err)
	}
	if status == delivery.StatusInProgress && LockPolicy(ws, w.Lane) != delivery.LockNone && (lk == nil || lk.WUID != w.ID) {
		out = append(out, Issue{"LOCK_MISSING", fmt.Sprintf("lane %s has no lock for %s", w.Lane, w.ID)})
	}
	if lk != nil && lk.WUID == w.ID && lk.Stale(rt.Now(), rt.StaleThreshold()) {
		out = append(out, Issue{"STALE_LOCK", fmt.Sprintf("the lock of lane %s is stale", w.Lane)})
	}
	return out, nil
}
