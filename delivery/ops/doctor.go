package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
)

// RuntimeIgnores are the .gitignore lines for runtime state (corpus §3.8): workspace:init
// appends the missing ones and doctor warns about them.
var RuntimeIgnores = []string{"/worktrees/", "/.lumenflow/memory/", "/.lumenflow/locks/",
	"/.lumenflow/sessions/", "/.lumenflow/telemetry/", "/.lumenflow/incidents/", "/.lumenflow/snapshots/",
	"/.lumenflow/archive/", "/.lumenflow/state/delegation-registry.jsonl", "/.lumenflow/skip-gates-audit.ndjson"}

// Check statuses, in increasing severity.
const (
	checkOK    = "ok"
	checkWarn  = "warn"
	checkError = "error"
)

// DoctorInput is doctor's input.
type DoctorInput struct {
	// Dir is the directory the call started in: the git checks run there when there is no
	// workspace.
	Dir string
	// Deep also runs validate's rules on every WU.
	Deep bool
}

// Doctor is corpus §3.8 doctor: the setup checks, each ok, warn or error. ws is the call's
// workspace, or nil with wsErr the reason it could not be opened (the workspace check is
// then an error and only the git checks run, in Dir). Any error check is a CHECK_FAILED
// error returned with its data (a check reports what it found even when it fails). Event
// log lines that are skipped are warnings. Notes.Text is the whole text report: one
// "<OK|WARN|ERROR>  <name>: <message>" line per check, then "<e> error(s), <w> warning(s)".
// It never writes.
func Doctor(ctx context.Context, ws *delivery.Workspace, wsErr error, rt *delivery.Runtime, in DoctorInput) (DoctorData, Notes, error) {
	var notes Notes
	d := DoctorData{Checks: []DoctorCheck{}}
	switch {
	case ws != nil:
		if cerr := ws.Config.Check(); cerr != nil {
			d.add("workspace", checkError, "workspace.yaml: "+cerr.Error())
		} else {
			d.add("workspace", checkOK, "workspace.yaml found and valid")
		}
	case delivery.CodeOf(wsErr) == tool.CodeNoWorkspace:
		d.add("workspace", checkError, "no workspace.yaml in this directory or any parent (run workspace:init)")
	default:
		d.add("workspace", checkError, wsErr.Error())
	}
	// Without a workspace only the git checks can run, on the start directory.
	dir := in.Dir
	if ws != nil {
		dir = ws.Root
		doctorConfig(&d, ws)
	}
	gitOK := doctorGit(ctx, &d, dir)
	doctorIdentity(ctx, rt, &d, dir, gitOK)
	if ws != nil {
		doctorLanes(rt, &d, ws)
		doctorGates(&d, ws)
		doctorGitignore(&d, ws)
		doctorEvents(&notes, &d, ws)
		if in.Deep {
			doctorWUs(&d, ws)
		}
	}

	var text strings.Builder
	for _, ck := range d.Checks {
		fmt.Fprintf(&text, "%s  %s: %s\n", strings.ToUpper(ck.Status), ck.Name, ck.Message)
	}
	fmt.Fprintf(&text, "%d error(s), %d warning(s)\n", d.Errors, d.Warnings)
	notes.Text = text.String()
	if d.Errors > 0 {
		return d, notes, delivery.Errorf(tool.CodeCheckFailed, "doctor found %d error(s), %d warning(s)", d.Errors, d.Warnings)
	}
	return d, notes, nil
}

// doctorConfig checks the software_delivery block and the directories it names.
func doctorConfig(d *DoctorData, ws *delivery.Workspace) {
	if ws.Config.HasSoftwareDelivery {
		d.add("software_delivery", checkOK, "software_delivery block present")
	} else {
		d.add("software_delivery", checkWarn, "workspace.yaml has no software_delivery block (defaults apply)")
	}
	dirs := []string{ws.Config.WUDir, ws.Config.InitiativesDir, ws.Config.PlansDir, delivery.StateDir, delivery.StampsDir}
	var missing []string
	for i, p := range dirs {
		dirs[i] = strings.TrimSuffix(filepath.ToSlash(filepath.Clean(filepath.FromSlash(p))), "/")
		if fi, err := os.Stat(ws.Abs(dirs[i])); err != nil || !fi.IsDir() {
			missing = append(missing, dirs[i])
		}
	}
	if len(missing) > 0 {
		d.add("directories", checkWarn, "missing: "+strings.Join(missing, ", "))
	} else {
		d.add("directories", checkOK, strings.Join(dirs, ", ")+" exist")
	}
}

// doctorGit checks that git runs and that dir is in a work tree; it reports whether git
// is available at all.
func doctorGit(ctx context.Context, d *DoctorData, dir string) bool {
	if _, err := exec.LookPath("git"); err != nil {
		d.add("git", checkWarn, "git not found in PATH (nothing will be committed)")
		return false
	}
	if !gitrepo.InWorkTree(ctx, dir) {
		d.add("git", checkWarn, "not inside a git work tree (nothing will be committed)")
		return true
	}
	d.add("git", checkOK, "inside a git work tree")
	return true
}

// doctorIdentity checks user.name and user.email as git sees them from dir.
func doctorIdentity(ctx context.Context, rt *delivery.Runtime, d *DoctorData, dir string, gitOK bool) {
	if !gitOK {
		d.add("git_identity", checkWarn, "git not available")
		return
	}
	g := delivery.NewGit(dir, rt)
	name, _ := g.Output(ctx, "config", "--get", "user.name")
	email, _ := g.Output(ctx, "config", "--get", "user.email")
	name, email = strings.TrimSpace(name), strings.TrimSpace(email)
	if email == "" {
		d.add("git_identity", checkWarn, "git user.email is not set (commits use delivery <delivery@localhost>)")
		return
	}
	if name == "" {
		d.add("git_identity", checkWarn, fmt.Sprintf("git user.name is not set (user.email %s)", email))
		return
	}
	d.add("git_identity", checkOK, fmt.Sprintf("%s <%s>", name, email))
}

// doctorLanes checks that lanes are defined and that no lane lock is stale.
func doctorLanes(rt *delivery.Runtime, d *DoctorData, ws *delivery.Workspace) {
	if n := len(ws.Config.Lanes); n == 0 {
		d.add("lanes", checkWarn, "no lanes defined in software_delivery.lanes.definitions")
	} else {
		d.add("lanes", checkOK, fmt.Sprintf("%d lane(s) defined", n))
	}
	locks, err := lanelock.List(ws.Root)
	if err != nil {
		d.add("lane_locks", checkWarn, fmt.Sprintf("cannot read %s: %v", delivery.LocksDir, err))
		return
	}
	var stale []string
	for _, l := range locks {
		if l.Stale(rt.Now(), rt.StaleThreshold()) {
			stale = append(stale, l.Path)
		}
	}
	switch {
	case len(stale) > 0:
		d.add("lane_locks", checkWarn, fmt.Sprintf("%d stale lock(s): %s (wu:unlock-lane or state:doctor --fix removes them)",
			len(stale), strings.Join(stale, ", ")))
	default:
		d.add("lane_locks", checkOK, fmt.Sprintf("%d lock(s), none stale", len(locks)))
	}
}

// doctorGates checks that gate commands are configured.
func doctorGates(d *DoctorData, ws *delivery.Workspace) {
	if n := len(ws.Config.Gates); n == 0 {
		d.add("gates", checkWarn, "no gate commands configured in software_delivery.gates.commands")
	} else {
		d.add("gates", checkOK, fmt.Sprintf("%d gate(s) configured", n))
	}
}

// doctorGitignore checks that .gitignore ignores every runtime path workspace:init adds.
// A line without the leading "/" ignores the path too (at any depth), so it counts.
func doctorGitignore(d *DoctorData, ws *delivery.Workspace) {
	data, err := os.ReadFile(ws.Abs(".gitignore"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.add("gitignore", checkWarn, fmt.Sprintf("cannot read .gitignore: %v", err))
		return
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		have[l], have["/"+strings.TrimPrefix(l, "/")] = true, true
	}
	var missing []string
	for _, l := range RuntimeIgnores {
		if !have[l] {
			missing = append(missing, l)
		}
	}
	if len(missing) > 0 {
		d.add("gitignore", checkWarn, fmt.Sprintf("missing runtime entries: %s (workspace:init --force adds them)",
			strings.Join(missing, ", ")))
	} else {
		d.add("gitignore", checkOK, "runtime state is ignored")
	}
}

// doctorEvents checks the event log for lines that do not parse or validate; each one is
// also a warning (corpus §1.7).
func doctorEvents(notes *Notes, d *DoctorData, ws *delivery.Workspace) {
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		d.add("event_log", checkError, err.Error())
		return
	}
	for _, w := range log.Warnings() {
		notes.Warn("%s", w)
	}
	if bad := log.Invalid(); len(bad) > 0 {
		lines := make([]string, len(bad))
		for i, b := range bad {
			lines[i] = fmt.Sprint(b.N)
		}
		d.add("event_log", checkError, fmt.Sprintf("%d malformed line(s) in %s: line %s", len(bad), delivery.EventsFile,
			strings.Join(lines, ", ")))
		return
	}
	d.add("event_log", checkOK, fmt.Sprintf("%d event(s)", len(log.Events())))
}

// doctorWUs runs validate's rules (--deep); validate errors make the check an error.
func doctorWUs(d *DoctorData, ws *delivery.Workspace) {
	if err := ws.Config.Check(ValidateKeys...); err != nil {
		d.add("wus", checkError, err.Error())
		return
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		d.add("wus", checkError, err.Error())
		return
	}
	rep, err := delivery.ValidateWUs(ws, files, "", false)
	if err != nil {
		d.add("wus", checkError, err.Error())
		return
	}
	errs, warns := rep.Errors(), rep.Warnings()
	if len(errs) == 0 {
		d.add("wus", checkOK, fmt.Sprintf("%d WU(s) validated: 0 error(s), %d warning(s)", rep.Checked, len(warns)))
		return
	}
	ids := []string{}
	for _, e := range errs {
		if len(ids) == 0 || ids[len(ids)-1] != e.ID {
			ids = append(ids, e.ID)
		}
	}
	d.add("wus", checkError, fmt.Sprintf("%d WU(s) validated: %d error(s) in %s, %d warning(s) (run validate for details)",
		rep.Checked, len(errs), strings.Join(ids, ", "), len(warns)))
}

// DoctorData is doctor's JSON data, on success and with its CHECK_FAILED failure.
type DoctorData struct {
	Checks   []DoctorCheck `json:"checks"`
	Errors   int           `json:"errors"`
	Warnings int           `json:"warnings"`
}

// DoctorCheck is one check and its outcome: ok, warn or error.
type DoctorCheck struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Message string `json:"message"`
}

// add records a check and counts its severity.
func (d *DoctorData) add(name, status, message string) {
	d.Checks = append(d.Checks, DoctorCheck{Name: name, Status: status, Message: message})
	switch status {
	case checkError:
		d.Errors++
	case checkWarn:
		d.Warnings++
	}
}
