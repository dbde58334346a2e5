package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "doctor", Domain: "workspace",
		New: newDoctorApp, Main: convention.Main(newDoctorApp)})
}

func newDoctorApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "doctor",
		Usage:    "Check the workspace setup: config, directories, git, lanes, locks, gates, .gitignore, event log (never writes)",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "deep", Usage: "also run the validate rules on every WU"},
		},
		Action: doctor,
	})
}

// Check statuses, in increasing severity.
const (
	checkOK    = "ok"
	checkWarn  = "warn"
	checkError = "error"
)

func doctor(c *convention.Call) error {
	d := &doctorData{Checks: []doctorCheck{}}
	ws, err := c.Workspace()
	switch {
	case err == nil:
		if cerr := ws.Config.Check(); cerr != nil {
			d.add("workspace", checkError, "workspace.yaml: "+cerr.Error())
		} else {
			d.add("workspace", checkOK, "workspace.yaml found and valid")
		}
	case delivery.CodeOf(err) == tool.CodeNoWorkspace:
		d.add("workspace", checkError, "no workspace.yaml in this directory or any parent (run workspace:init)")
	default:
		d.add("workspace", checkError, err.Error())
	}
	// Without a workspace only the git checks can run, on the start directory.
	dir := ""
	if ws != nil {
		dir = ws.Root
	} else if dir, err = c.Dir(); err != nil {
		return err
	}
	if ws != nil {
		doctorConfig(d, ws)
	}
	gitOK := doctorGit(c, d, dir)
	doctorIdentity(c, d, dir, gitOK)
	if ws != nil {
		doctorLanes(c, d, ws)
		doctorGates(d, ws)
		doctorGitignore(d, ws)
		doctorEvents(c, d, ws)
		if c.Bool("deep") {
			doctorWUs(d, ws)
		}
	}

	var text strings.Builder
	for _, ck := range d.Checks {
		fmt.Fprintf(&text, "%s  %s: %s\n", strings.ToUpper(ck.Status), ck.Name, ck.Message)
	}
	fmt.Fprintf(&text, "%d error(s), %d warning(s)\n", d.Errors, d.Warnings)
	if d.Errors > 0 {
		if !c.JSON {
			if err := c.Print(text.String(), nil); err != nil {
				return err
			}
		}
		c.Partial(d)
		return c.Failf(tool.CodeCheckFailed, "doctor found %d error(s), %d warning(s)", d.Errors, d.Warnings)
	}
	return c.Print(text.String(), d)
}

// doctorConfig checks the software_delivery block and the directories it names.
func doctorConfig(d *doctorData, ws *delivery.Workspace) {
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
func doctorGit(c *convention.Call, d *doctorData, dir string) bool {
	if _, err := exec.LookPath("git"); err != nil {
		d.add("git", checkWarn, "git not found in PATH (nothing will be committed)")
		return false
	}
	if !delivery.InWorkTree(c.Context(), dir) {
		d.add("git", checkWarn, "not inside a git work tree (nothing will be committed)")
		return true
	}
	d.add("git", checkOK, "inside a git work tree")
	return true
}

// doctorIdentity checks user.name and user.email as git sees them from dir.
func doctorIdentity(c *convention.Call, d *doctorData, dir string, gitOK bool) {
	if !gitOK {
		d.add("git_identity", checkWarn, "git not available")
		return
	}
	g := delivery.NewGit(dir, c.Runtime())
	name, _ := g.Output(c.Context(), "config", "--get", "user.name")
	email, _ := g.Output(c.Context(), "config", "--get", "user.email")
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
func doctorLanes(c *convention.Call, d *doctorData, ws *delivery.Workspace) {
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
	rt := c.Runtime()
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
func doctorGates(d *doctorData, ws *delivery.Workspace) {
	if n := len(ws.Config.Gates); n == 0 {
		d.add("gates", checkWarn, "no gate commands configured in software_delivery.gates.commands")
	} else {
		d.add("gates", checkOK, fmt.Sprintf("%d gate(s) configured", n))
	}
}

// doctorGitignore checks that .gitignore ignores every runtime path workspace:init adds.
// A line without the leading "/" ignores the path too (at any depth), so it counts.
func doctorGitignore(d *doctorData, ws *delivery.Workspace) {
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
	for _, l := range runtimeIgnores {
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
// also a warning (spec §1.7).
func doctorEvents(c *convention.Call, d *doctorData, ws *delivery.Workspace) {
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		d.add("event_log", checkError, err.Error())
		return
	}
	for _, w := range log.Warnings() {
		c.Warn("%s", w)
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
func doctorWUs(d *doctorData, ws *delivery.Workspace) {
	if err := ws.Config.Check("software_delivery.directories", "software_delivery.lanes", "software_delivery.wu"); err != nil {
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

// doctorData is doctor's JSON data.
type doctorData struct {
	Checks   []doctorCheck `json:"checks"`
	Errors   int           `json:"errors"`
	Warnings int           `json:"warnings"`
}

// doctorCheck is one check and its outcome.
type doctorCheck struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Message string `json:"message"`
}

func (d *doctorData) add(name, status, message string) {
	d.Checks = append(d.Checks, doctorCheck{Name: name, Status: status, Message: message})
	switch status {
	case checkError:
		d.Errors++
	case checkWarn:
		d.Warnings++
	}
}
