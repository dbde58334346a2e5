package wu

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The helpers below are shared by every wu:* command (part A and part B). They only glue
// convention.Call to package delivery: no domain rule lives here that delivery already has.

// openWorkspace opens the workspace and checks the keys every wu command reads.
func openWorkspace(c *convention.Call) (*delivery.Workspace, error) {
	return c.Workspace("software_delivery.directories", "software_delivery.lanes", "software_delivery.wu")
}

// loadEvents reads the event log and prints one warning per skipped line (spec §1.7).
func loadEvents(c *convention.Call, ws *delivery.Workspace) (*delivery.EventLog, error) {
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range log.Warnings() {
		c.Warn("%s", w)
	}
	return log, nil
}

// appendEvent appends one event of type typ for w, stamped with the runtime's clock.
func appendEvent(c *convention.Call, ws *delivery.Workspace, ev delivery.Event) error {
	ev.Timestamp = delivery.Timestamp(c.Runtime().Now())
	return delivery.AppendEvents(ws.Root, ev)
}

// requireStatus fails with INVALID_TRANSITION unless the WU's normalised status is one of
// allowed; to names the target status in the message.
func requireStatus(w *delivery.WU, to string, allowed ...string) error {
	if slices.Contains(allowed, w.NormStatus()) {
		return nil
	}
	return delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: cannot move to %s", w.ID, w.NormStatus(), to)
}

// validationError reports violations as one VALIDATION error (one stderr line each).
func validationError(id string, violations []string) error {
	return (&delivery.Error{Code: tool.CodeValidation,
		Message: fmt.Sprintf("%s: %d validation error(s)", id, len(violations))}).
		WithDetails(map[string]any{"errors": violations})
}

// appendNote appends a dated note line ("[<date>] <text>") to the WU's notes on a new line.
// A legacy list of notes is rewritten as one string (the typed view already joins it).
func appendNote(c *convention.Call, w *delivery.WU, text string) {
	note := fmt.Sprintf("[%s] %s", delivery.Date(c.Runtime().Now()), text)
	if w.Notes != "" {
		note = w.Notes + "\n" + note
	}
	w.Set("notes", delivery.StrNode(note))
}

// clearKeys removes top-level keys from the WU document.
func clearKeys(w *delivery.WU, keys ...string) {
	for _, k := range keys {
		w.Delete(k)
	}
}

// wuStatuses reads every WU file into id → normalised status; unparsable files are
// skipped (their id still counts as existing, with status "").
func wuStatuses(ws *delivery.Workspace) (map[string]string, error) {
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(files))
	for _, f := range files {
		if f.WU != nil {
			out[f.ID] = f.WU.NormStatus()
		} else {
			out[f.ID] = ""
		}
	}
	return out, nil
}

// exists reports whether a root-relative path exists.
func exists(ws *delivery.Workspace, rel string) bool {
	_, err := os.Lstat(ws.Abs(rel))
	return err == nil
}

// worktreeDir returns the WU's worktree (root-relative) when it is claimed in worktree mode
// and the directory exists, else "".
func worktreeDir(ws *delivery.Workspace, w *delivery.WU) string {
	if w.ClaimedMode != "worktree" || w.WorktreePath == "" {
		return ""
	}
	if fi, err := os.Stat(ws.Abs(w.WorktreePath)); err == nil && fi.IsDir() {
		return w.WorktreePath
	}
	return ""
}

// removeWorktree removes the WU's worktree (git worktree remove) when it exists, keeping
// its branch. It reports whether a worktree was removed.
func removeWorktree(c *convention.Call, ws *delivery.Workspace, w *delivery.WU, force bool) (bool, error) {
	dir := worktreeDir(ws, w)
	if dir == "" {
		return false, nil
	}
	if err := delivery.NewGit(ws.Root, c.Runtime()).WorktreeRemove(c.Context(), dir, force); err != nil {
		return false, err
	}
	return true, nil
}

// releaseLockFor removes the lane lock of w's lane when it is held for w (whoever the owner
// is: the WU's claim is being given up). It reports whether a lock was removed.
func releaseLockFor(ws *delivery.Workspace, w *delivery.WU) (bool, error) {
	lk, err := lanelock.Read(ws.Root, w.Lane)
	if err != nil {
		return false, delivery.Errorf(tool.CodeIOError, "read lock of %s: %w", w.Lane, err)
	}
	if lk == nil || lk.WUID != w.ID {
		return false, nil
	}
	res, err := lanelock.Release(ws.Root, w.Lane, lk.Owner, true)
	if err != nil {
		return false, delivery.Errorf(tool.CodeIOError, "release lock of %s: %w", w.Lane, err)
	}
	return res.Released, nil
}

// acquireLock takes the lane lock for w with the runtime's owner; a lock held by someone
// else is LANE_BUSY with details {holder}.
func acquireLock(c *convention.Call, ws *delivery.Workspace, w *delivery.WU) (lanelock.Result, error) {
	rt := c.Runtime()
	res, err := lanelock.Acquire(ws.Root, w.Lane, w.ID, rt.Owner(c.Context()), rt.Now(), rt.StaleThreshold())
	if err != nil {
		return res, delivery.Errorf(tool.CodeIOError, "lock %s: %w", w.Lane, err)
	}
	for _, warn := range res.Warnings {
		c.Warn("%s", warn)
	}
	if !res.Acquired {
		holder := res.Holder
		msg := fmt.Sprintf("lane %s is locked", w.Lane)
		if holder != nil {
			msg = fmt.Sprintf("lane %s is locked by %s for %s", w.Lane, holder.Owner, holder.WUID)
		}
		return res, (&delivery.Error{Code: tool.CodeLaneBusy, Message: msg}).WithDetails(map[string]any{"holder": holder})
	}
	return res, nil
}

// lockPolicy is the lock_policy of the WU's lane (undefined lanes behave as "all").
func lockPolicy(ws *delivery.Workspace, lane string) string {
	def, _ := ws.Config.Lane(lane)
	if def.LockPolicy == "" {
		return delivery.LockAll
	}
	return def.LockPolicy
}

// wuList is a repeatable WU flag (WU[]): a string slice whose every value must be a WU id.
// The check runs as the flag's action, so a bad value is a usage error (exit 2).
func wuList(name, usage string, required bool) *cli.StringSliceFlag {
	f := convention.Repeated(name, usage+" (WU-<n>, repeatable)", "WU-<number>", delivery.ValidWUID)
	f.Required = required
	return f
}

// nonEmptyValue is a STRING flag value that must not be empty (spec "non-empty").
type nonEmptyValue struct{ value string }

func (v *nonEmptyValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("non-empty string")
	}
	v.value = s
	return nil
}

func (v *nonEmptyValue) String() string { return v.value }

// Expected names the accepted form for the usage message.
func (v *nonEmptyValue) Expected() string { return "non-empty string" }

// nonEmpty declares a required STRING flag that rejects an empty value as a usage error.
func nonEmpty(name, usage string) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Usage: usage, Required: true, Value: &nonEmptyValue{}}
}

// seqWithout returns a copy of a string sequence node without the given item.
func seqWithout(items []string, drop string) *yaml.Node {
	out := make([]string, 0, len(items))
	for _, it := range items {
		if it != drop {
			out = append(out, it)
		}
	}
	return delivery.StrSeq(out)
}

// addToInitiative adds id to the initiative's wus list (no duplicate) and writes it,
// reporting whether the file changed.
func addToInitiative(ws *delivery.Workspace, in *delivery.Initiative, id string) (bool, error) {
	if slices.Contains(in.WUs, id) {
		return false, nil
	}
	in.Set("wus", delivery.StrSeq(append(slices.Clone(in.WUs), id)))
	in.Refresh()
	return true, delivery.WriteInitiative(ws.Root, in)
}

// removeFromInitiative removes id from the initiative's wus list and writes it, reporting
// whether the file changed.
func removeFromInitiative(ws *delivery.Workspace, in *delivery.Initiative, id string) (bool, error) {
	if !slices.Contains(in.WUs, id) {
		return false, nil
	}
	in.Set("wus", seqWithout(in.WUs, id))
	in.Refresh()
	return true, delivery.WriteInitiative(ws.Root, in)
}

// relDir renders a directory for output: root-relative with "/" separators, "." for the
// root, absolute when it lies outside the root.
func relDir(ws *delivery.Workspace, abs string) string {
	rel, err := filepath.Rel(ws.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// strPtr returns nil for "" and &s otherwise (JSON null for absent values).
func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// createInput holds the values of the create step (wu:create, wu:proto).
type createInput struct {
	// ID is the requested id; "" draws the next one (spec §2.5).
	ID                                                  string
	Lane, Title, Description, Type, Priority, Exposure  string
	Initiative                                          string
	Phase                                               int
	Acceptance, CodePaths, BlockedBy, TestsUnit, Manual []string
	Labels                                              []string
	Notes                                               string
	Strict                                              bool
}

// createResult is what the create step wrote.
type createResult struct {
	WU     *delivery.WU
	Commit *convention.Commit
}

// createWU is the create step of spec §3.1 wu:create, shared with wu:proto: it checks the
// lane, the id and the initiative, builds the new file in the spec's key order, validates
// it (strictly when asked), then writes the YAML, the initiative's wus, the create event,
// and commits. Nothing is written when a check fails.
func createWU(c *convention.Call, ws *delivery.Workspace, in createInput) (*createResult, error) {
	if len(ws.Config.Lanes) > 0 {
		if _, ok := ws.Config.Lane(in.Lane); !ok {
			return nil, validationError("new WU", []string{fmt.Sprintf("lane %q is not defined in workspace.yaml", in.Lane)})
		}
	}
	id := in.ID
	if id == "" {
		next, err := delivery.NextWUID(ws)
		if err != nil {
			return nil, err
		}
		id = next
	} else if exists(ws, ws.WUPath(id)) || delivery.StampExists(ws.Root, id) {
		return nil, delivery.Errorf(tool.CodeAlreadyExists, "%s already exists", id)
	}
	var initiative *delivery.Initiative
	if in.Initiative != "" {
		var err error
		if initiative, err = delivery.ResolveInitiative(ws, in.Initiative); err != nil {
			return nil, err
		}
	}
	w := delivery.NewWU(ws.Config.WUDir, delivery.NewWUInput{ID: id, Title: in.Title, Lane: in.Lane,
		Type: in.Type, Priority: in.Priority, Created: delivery.Date(c.Runtime().Now()),
		Description: in.Description, Acceptance: in.Acceptance, CodePaths: in.CodePaths,
		TestsManual: in.Manual, TestsUnit: in.TestsUnit})
	if in.Initiative != "" {
		w.Set("initiative", delivery.StrNode(in.Initiative))
	}
	if in.Phase > 0 {
		w.Set("phase", delivery.IntNode(int64(in.Phase)))
	}
	if len(in.BlockedBy) > 0 {
		w.Set("blocked_by", delivery.StrSeq(in.BlockedBy))
	}
	if in.Exposure != "" {
		w.Set("exposure", delivery.StrNode(in.Exposure))
	}
	if len(in.Labels) > 0 {
		w.Set("labels", delivery.StrSeq(in.Labels))
	}
	if in.Notes != "" {
		w.Set("notes", delivery.StrNode(in.Notes))
	}
	w.Refresh()
	violations := delivery.ValidateStructure(w)
	if in.Strict {
		violations = delivery.ValidateStrict(w, ws.Config.MinDescriptionLength)
	}
	if len(violations) > 0 {
		return nil, validationError(id, violations)
	}
	for _, dep := range in.BlockedBy {
		if !exists(ws, ws.WUPath(dep)) {
			c.Warn("blocked_by %s does not exist", dep)
		}
	}
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return nil, err
	}
	paths := []string{w.Path}
	if initiative != nil {
		if _, err := addToInitiative(ws, initiative, id); err != nil {
			return nil, err
		}
		paths = append(paths, initiative.Path)
	}
	if err := appendEvent(c, ws, delivery.Event{Type: delivery.EventCreate, WUID: id, Lane: in.Lane, Title: in.Title}); err != nil {
		return nil, err
	}
	paths = append(paths, delivery.EventsFile)
	cm, err := c.Commit(ws, fmt.Sprintf("docs: create %s for %s", strings.ToLower(id), delivery.Title60(in.Title)), paths...)
	if err != nil {
		return nil, err
	}
	return &createResult{WU: w, Commit: cm}, nil
}

// claimInput holds the values of the claim step (wu:claim, wu:proto).
type claimInput struct {
	ID, Lane          string
	BranchOnly, Force bool
}

// claimResult is what the claim step did.
type claimResult struct {
	WU           *delivery.WU
	Mode         string
	WorktreePath *string
	Branch       *string
	SessionID    string
	LockPath     *string
	Commit       *convention.Commit
}

// claimWU is the claim step of spec §3.1 wu:claim, shared with wu:proto. Checks run in the
// spec's order and nothing is written until all of them pass (the lock is the first
// write); once the lock is taken, any later failure releases it again.
func claimWU(c *convention.Call, ws *delivery.Workspace, in claimInput) (res *claimResult, err error) {
	ctx := c.Context()
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return nil, err
	}
	if in.Lane != w.Lane {
		return nil, validationError(w.ID, []string{fmt.Sprintf("lane %q does not match %s's lane %q", in.Lane, w.ID, w.Lane)})
	}
	if err := requireStatus(w, delivery.StatusInProgress, delivery.StatusReady); err != nil {
		return nil, err
	}
	if v := delivery.ValidateStrict(w, ws.Config.MinDescriptionLength); len(v) > 0 {
		return nil, validationError(w.ID, v)
	}
	if !in.Force {
		if err := checkClaimable(ws, w); err != nil {
			return nil, err
		}
	}
	mode := "worktree"
	if in.BranchOnly {
		mode = "branch-only"
	} else if !delivery.InWorkTree(ctx, ws.Root) {
		mode = "branch-only"
		c.Warn("%s is not a git repository: claiming in branch-only mode", ".")
	}
	g := delivery.NewGit(ws.Root, c.Runtime())
	out := &claimResult{WU: w, Mode: mode}
	if mode == "worktree" {
		wt, branch := ws.WorktreePath(w.Lane, w.ID), ws.LaneBranch(w.Lane, w.ID)
		if exists(ws, wt) {
			return nil, delivery.Errorf(tool.CodeAlreadyExists, "worktree %s already exists", wt)
		}
		if g.BranchExists(ctx, branch) {
			return nil, delivery.Errorf(tool.CodeAlreadyExists, "branch %s already exists", branch)
		}
		out.WorktreePath, out.Branch = &wt, &branch
	}
	if lockPolicy(ws, w.Lane) != delivery.LockNone {
		lk, err := acquireLock(c, ws, w)
		if err != nil {
			return nil, err
		}
		out.LockPath = &lk.LockPath
		if !lk.AlreadyHeld {
			defer func() {
				if err != nil {
					_, _ = lanelock.Release(ws.Root, w.Lane, c.Runtime().Owner(ctx), false)
				}
			}()
		}
	}
	out.SessionID = delivery.NewID(c.Runtime(), delivery.KindUUID, nil)
	w.Set("status", delivery.StrNode(delivery.StatusInProgress))
	w.Set("claimed_at", delivery.TimestampNode(delivery.Timestamp(c.Runtime().Now())))
	w.Set("claimed_mode", delivery.StrNode(mode))
	if mode == "worktree" {
		w.Set("worktree_path", delivery.StrNode(*out.WorktreePath))
		w.Set("claimed_branch", delivery.StrNode(*out.Branch))
	}
	w.Set("session_id", delivery.StrNode(out.SessionID))
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return nil, err
	}
	if err := appendEvent(c, ws, delivery.Event{Type: delivery.EventClaim, WUID: w.ID, Lane: w.Lane, Title: w.Title}); err != nil {
		return nil, err
	}
	subject := fmt.Sprintf("wu(%s): claim for %s lane", strings.ToLower(w.ID), delivery.Kebab(w.Lane))
	if out.Commit, err = c.Commit(ws, subject, w.Path, delivery.EventsFile); err != nil {
		return nil, err
	}
	if mode == "worktree" {
		if err := g.WorktreeAdd(ctx, *out.WorktreePath, *out.Branch, true, "HEAD"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkClaimable applies the dependency and WIP checks of wu:claim (skipped by --force).
func checkClaimable(ws *delivery.Workspace, w *delivery.WU) error {
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return err
	}
	status := map[string]string{}
	var inLane []string
	for _, f := range files {
		if f.WU == nil {
			continue
		}
		status[f.ID] = f.WU.NormStatus()
		if f.ID != w.ID && f.WU.Lane == w.Lane && f.WU.NormStatus() == delivery.StatusInProgress {
			inLane = append(inLane, f.ID)
		}
	}
	var unmet []string
	for _, dep := range w.BlockedBy {
		switch s, ok := status[dep]; {
		case !ok:
			unmet = append(unmet, fmt.Sprintf("blocked by %s (missing)", dep))
		case s != delivery.StatusDone:
			unmet = append(unmet, fmt.Sprintf("blocked by %s (%s)", dep, s))
		}
	}
	if len(unmet) > 0 {
		return validationError(w.ID, unmet)
	}
	def, _ := ws.Config.Lane(w.Lane)
	limit := def.WIPLimit
	if limit < 1 {
		limit = 1
	}
	if len(inLane) >= limit {
		return (&delivery.Error{Code: tool.CodeLaneBusy,
			Message: fmt.Sprintf("lane %s is at its WIP limit (%d): %s in progress", w.Lane, limit, strings.Join(inLane, ", "))}).
			WithDetails(map[string]any{"holder": nil})
	}
	return nil
}

// removeWorktreeOrWarn removes the WU's worktree after the command's state change is
// committed; a failure (a dirty worktree, say) is a warning, because the state change
// itself succeeded and the worktree can be removed later (wu:prune, wu:cleanup).
func removeWorktreeOrWarn(c *convention.Call, ws *delivery.Workspace, w *delivery.WU) bool {
	removed, err := removeWorktree(c, ws, w, false)
	if err != nil {
		c.Warn("worktree %s not removed: %s", w.WorktreePath, delivery.AsError(err).Message)
	}
	return removed
}

// deletion is the plan of wu:delete's deletions (shared with wu:recover --action nuke):
// which files go, which event lines stay, which initiatives lose ids, which locks are
// released. Planning reads only; apply writes.
type deletion struct {
	wus         []*delivery.WU
	files       []string // root-relative files that exist and will be removed
	events      int      // event lines removed
	keptLines   [][]byte // the event log without those lines
	initiatives []*delivery.Initiative
}

// planDeletion checks every id before anything is deleted: each must exist, parse and not
// be in_progress (INVALID_TRANSITION: release it first).
func planDeletion(c *convention.Call, ws *delivery.Workspace, ids []string) (*deletion, error) {
	d := &deletion{files: []string{}}
	drop := map[string]bool{}
	for _, id := range ids {
		w, err := delivery.ReadWU(ws, id)
		if err != nil {
			return nil, err
		}
		if w.NormStatus() == delivery.StatusInProgress {
			return nil, delivery.Errorf(tool.CodeInvalidTransition, "%s is in_progress: release it before deleting it", id)
		}
		d.wus = append(d.wus, w)
		drop[id] = true
		d.files = append(d.files, w.Path)
		if delivery.StampExists(ws.Root, id) {
			d.files = append(d.files, delivery.StampRel(id))
		}
	}
	log, err := loadEvents(c, ws)
	if err != nil {
		return nil, err
	}
	for _, ln := range log.Lines {
		if drop[ln.Event.WUID] {
			d.events++
			continue
		}
		d.keptLines = append(d.keptLines, ln.Raw)
	}
	all, err := delivery.ListInitiatives(ws)
	if err != nil {
		return nil, err
	}
	for _, in := range all {
		for _, id := range in.WUs {
			if drop[id] {
				d.initiatives = append(d.initiatives, in)
				break
			}
		}
	}
	return d, nil
}

// initiativeIDs lists the ids of the initiatives the deletion updates.
func (d *deletion) initiativeIDs() []string {
	out := make([]string, 0, len(d.initiatives))
	for _, in := range d.initiatives {
		out = append(out, in.ID)
	}
	return out
}

// apply performs the deletion and returns the committable paths it changed.
func (d *deletion) apply(ws *delivery.Workspace) ([]string, error) {
	paths := append([]string(nil), d.files...)
	for _, f := range d.files {
		if err := os.Remove(ws.Abs(f)); err != nil && !os.IsNotExist(err) {
			return nil, delivery.Errorf(tool.CodeIOError, "delete %s: %w", f, err)
		}
	}
	if d.events > 0 {
		if err := delivery.RewriteEvents(ws.Root, d.keptLines); err != nil {
			return nil, err
		}
		paths = append(paths, delivery.EventsFile)
	}
	for _, in := range d.initiatives {
		for _, w := range d.wus {
			if _, err := removeFromInitiative(ws, in, w.ID); err != nil {
				return nil, err
			}
		}
		paths = append(paths, in.Path)
	}
	for _, w := range d.wus {
		if _, err := releaseLockFor(ws, w); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// gateRun is the outcome of running a WU's gates.
type gateRun struct {
	Dir     string // root-relative directory the gates ran in ("." for the root)
	Results []delivery.GateResult
	Failed  int
}

// runWUGates runs the configured gates (spec §3.2) for w in its worktree when it is
// claimed in worktree mode and the directory exists, otherwise in the root. Children's
// output goes to stderr; telemetry goes to the main checkout. No gates is a warning.
func runWUGates(c *convention.Call, ws *delivery.Workspace, w *delivery.WU, docsOnly bool) (*gateRun, error) {
	if err := ws.Config.Check("software_delivery.gates"); err != nil {
		return nil, err
	}
	gates, err := delivery.SelectGates(ws.Config.Gates, docsOnly, nil)
	if err != nil {
		return nil, err
	}
	run := &gateRun{Dir: ".", Results: []delivery.GateResult{}}
	dir := ws.Root
	if wt := worktreeDir(ws, w); wt != "" {
		run.Dir, dir = wt, ws.Abs(wt)
	}
	if len(gates) == 0 {
		c.Warn("no gates configured")
		return run, nil
	}
	wuID, lane := delivery.LaneOfBranch(c.Context(), ws, dir)
	results, err := delivery.RunGates(c.Context(), delivery.GateRun{Dir: dir, Output: c.Stderr(),
		Now: c.Runtime().Now, TelemetryRoot: ws.Root, WUID: wuID, Lane: lane}, gates)
	if err != nil {
		return nil, err
	}
	run.Results = results
	for _, r := range results {
		if !r.Passed {
			run.Failed++
		}
	}
	return run, nil
}

// gateLines renders "PASS <name>" / "FAIL <name> (exit <code>)" per gate.
func gateLines(results []delivery.GateResult) string {
	var b strings.Builder
	for _, r := range results {
		if r.Passed {
			fmt.Fprintf(&b, "PASS %s\n", r.Name)
		} else {
			fmt.Fprintf(&b, "FAIL %s (exit %d)\n", r.Name, r.ExitCode)
		}
	}
	return b.String()
}

// gatesFailed is the GATES_FAILED error of a gate run.
func gatesFailed(run *gateRun) error {
	return delivery.Errorf(tool.CodeGatesFailed, "gates failed (%d of %d)", run.Failed, len(run.Results))
}

// issue is one inconsistency of a WU (issue codes shared by wu:status, wu:recover,
// wu:repair and state:doctor; spec §3.1 wu:recover).
type issue struct {
	Code    string
	Message string
}

// diagnose lists the inconsistencies between a WU's YAML, its event state, stamp,
// worktree and lane lock, in the spec's code order. It only reads.
func diagnose(c *convention.Call, ws *delivery.Workspace, w *delivery.WU, log *delivery.EventLog) ([]issue, error) {
	var out []issue
	status := w.NormStatus()
	if es, has := log.State(w.ID); !delivery.Consistent(es, has, w.Status) {
		out = append(out, issue{"STATUS_MISMATCH", fmt.Sprintf("YAML status is %s but the event state is %s", status, es)})
	}
	wtExists := w.WorktreePath != "" && exists(ws, w.WorktreePath)
	if status == delivery.StatusInProgress && w.ClaimedMode == "worktree" && w.WorktreePath != "" && !wtExists {
		out = append(out, issue{"MISSING_WORKTREE_CLAIMED", fmt.Sprintf("worktree %s is missing", w.WorktreePath)})
	}
	if status == delivery.StatusDone && wtExists {
		out = append(out, issue{"ORPHAN_WORKTREE_DONE", fmt.Sprintf("worktree %s remains after done", w.WorktreePath)})
	}
	stamp := delivery.StampExists(ws.Root, w.ID)
	if stamp && status != delivery.StatusDone {
		out = append(out, issue{"STAMP_EXISTS_YAML_NOT_DONE", fmt.Sprintf("stamp exists but YAML status is %s", status)})
	}
	if !stamp && status == delivery.StatusDone {
		out = append(out, issue{"YAML_DONE_NO_STAMP", "YAML status is done but the stamp is missing"})
	}
	lk, err := lanelock.Read(ws.Root, w.Lane)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "read lock of %s: %w", w.Lane, err)
	}
	if status == delivery.StatusInProgress && lockPolicy(ws, w.Lane) != delivery.LockNone && (lk == nil || lk.WUID != w.ID) {
		out = append(out, issue{"LOCK_MISSING", fmt.Sprintf("lane %s has no lock for %s", w.Lane, w.ID)})
	}
	if lk != nil && lk.WUID == w.ID && lk.Stale(c.Runtime().Now(), c.Runtime().StaleThreshold()) {
		out = append(out, issue{"STALE_LOCK", fmt.Sprintf("the lock of lane %s is stale", w.Lane)})
	}
	return out, nil
}
