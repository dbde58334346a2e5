package wsgen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

// Options choose the workspace to write.
type Options struct {
	// Scale multiplies the 1× shape (WUs, initiatives, events, stamps, memory, signals);
	// 0 means 1. Lanes stay 28 and the WUs in progress stay a handful: a project that
	// grew a longer history did not grow a larger team.
	Scale int
	// Seed drives every random choice; the same seed writes the same workspace.
	Seed uint64
	// Git makes the workspace a git repository (branch main, one commit of everything
	// that is not runtime state) and gives each WU in progress a linked worktree on its
	// lane branch, checked out sparsely so a 16× workspace stays cheap to create.
	Git bool
}

// Manifest says what was written, with the id of every instance of each real-data shape.
// WU id lists are in ascending numeric order.
type Manifest struct {
	Dir   string
	Scale int
	// Now is the end of the generated history: run commands with DELIVERY_NOW set to
	// delivery.Timestamp(Now).
	Now time.Time
	// WUDir and InitiativesDir are the workspace's configured directories.
	WUDir, InitiativesDir string

	Lanes []string
	// SubLanes are the (parent, sub-lane) pairs whose code paths overlap by design.
	SubLanes [][2]string

	WUs, Initiatives, Events, Stamps, MemoryNodes, Signals int

	InProgress, Blocked, Ready, Done, Closed []string
	// ReleasedThenClosed were claimed, released, then superseded or cancelled: closed in
	// YAML, event state ready.
	ReleasedThenClosed []string
	// DateOnlyCompletion are done WUs whose completion is a date without a time, claimed
	// with a time on that same day.
	DateOnlyCompletion []string
	// Legacy specs predate `exposure` and the event log.
	Legacy []string
	// Gone are WU ids whose spec file no longer exists; GoneListedBy maps each initiative
	// that still lists some of them to those ids; OrphanStamps are the gone WUs whose
	// stamp was left behind.
	Gone         []string
	GoneListedBy map[string][]string
	OrphanStamps []string
	// InitiativeIDs are every initiative, in file order.
	InitiativeIDs []string
	// WithMemory are the WUs that memory nodes point at, in the order of their first node.
	WithMemory []string
	// Worktrees are the root-relative worktree paths of the WUs in progress (linked git
	// worktrees with Options.Git, plain directories otherwise).
	Worktrees []string
}

// The 1× shape, from the mature workspace issue 14 measured.
const (
	baseWUs         = 1265
	baseInitiatives = 49
	baseGone        = 13
	baseBlocked     = 6
	baseReady       = 20
	baseClosed      = 24
	baseSignals     = 150
	baseMemory      = 300
	inProgressMax   = 5
	historyDays     = 420
	wuDir           = "docs/04-operations/tasks/wu"
	initiativesDir  = "docs/04-operations/tasks/initiatives"
	plansDir        = "docs/04-operations/plans"
	owner           = "dev@lumenflow.example"
)

// now is the end of every generated history: the corpus scripts' pinned clock.
var now = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// lane is one lane definition.
type lane struct {
	name   string
	paths  []string
	policy string
	wip    int
}

// lanes are the 28 lanes: Framework lanes lock every claim, Operations and Experience
// lanes only while active, Content lanes never. Three Framework lanes are sub-lanes of
// another whose code paths contain theirs.
var lanes = func() []lane {
	fw := func(name, dir string) lane {
		return lane{name: "Framework: " + name, paths: []string{"packages/@lumenflow/" + dir + "/**"}, policy: delivery.LockAll, wip: 1}
	}
	ls := []lane{
		fw("Core", "core"), fw("Core Lifecycle", "core/src/lifecycle"), fw("Core Validation", "core/src/validation"),
		fw("CLI", "cli"), fw("CLI WU Commands", "cli/src/wu"), fw("Memory", "memory"), fw("Agent", "agent"),
		fw("Initiatives", "initiatives"), fw("Metrics", "metrics"), fw("Shims", "shims"), fw("MCP", "mcp"),
		fw("Kernel", "kernel"), fw("Surfaces", "surfaces"), fw("Runtime", "runtime"), fw("Packs", "packs"),
	}
	for _, l := range []struct{ name, dir string }{{"CI/CD", ".github"}, {"Tooling", "tools"}, {"Infrastructure", "infra"},
		{"Security", "security"}, {"Release", "release"}} {
		ls = append(ls, lane{name: "Operations: " + l.name, paths: []string{l.dir + "/**"}, policy: delivery.LockActive, wip: 1})
	}
	ls[len(ls)-4].paths = append(ls[len(ls)-4].paths, "scripts/**") // Tooling owns scripts/ too
	ls = append(ls,
		lane{name: "Content: Documentation", paths: []string{"docs/**"}, policy: delivery.LockNone, wip: 3},
		lane{name: "Content: Site", paths: []string{"apps/site/**"}, policy: delivery.LockNone, wip: 1},
		lane{name: "Content: Templates", paths: []string{"templates/**"}, policy: delivery.LockNone, wip: 1})
	for _, l := range []struct{ name, dir string }{{"Web", "apps/web"}, {"CLI UX", "apps/cli-ux"}, {"Design", "apps/design"}} {
		ls = append(ls, lane{name: "Experience: " + l.name, paths: []string{l.dir + "/**"}, policy: delivery.LockActive, wip: 1})
	}
	ls = append(ls,
		lane{name: "Intelligence: Evaluation", paths: []string{"evals/**"}, policy: delivery.LockActive, wip: 1},
		lane{name: "Intelligence: Prompts", paths: []string{"prompts/**"}, policy: delivery.LockActive, wip: 1})
	return ls
}()

// subLanes are the (parent, sub-lane) index pairs of lanes.
var subLanes = [][2]int{{0, 1}, {0, 2}, {3, 4}}

// role is what a WU id became.
type role int

const (
	roleDone role = iota
	roleLegacy
	roleGone
	roleClosedReleased
	roleClosedUnclaimed
	roleReady
	roleBlocked
	roleInProgress
)

// wu is one generated WU with its history.
type wu struct {
	n         int
	id        string
	role      role
	lane      int
	typ       string
	priority  string
	created   time.Time
	claimed   time.Time
	completed time.Time
	dateOnly  bool // completion written as a date only
	createEv  bool // created by wu:create (a create event)
	blockedBy []string
	init      int // initiative index, -1 for none
	initField bool
	phase     int
}

// Generate writes a workspace into dir (created if needed; it should be empty) and
// returns its manifest.
func Generate(dir string, opts Options) (*Manifest, error) {
	if opts.Scale <= 0 {
		opts.Scale = 1
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("wsgen: %w", err)
	}
	g := &gen{dir: abs, opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 0x1265)),
		m: &Manifest{Dir: abs, Scale: opts.Scale, Now: now, WUDir: wuDir, InitiativesDir: initiativesDir,
			GoneListedBy: map[string][]string{}}}
	g.plan()
	steps := []struct {
		name string
		fn   func() error
	}{
		{"workspace.yaml", g.writeConfig}, {"source files", g.writeSources}, {"WU specs", g.writeWUs},
		{"initiatives", g.writeInitiatives}, {"events", g.writeEvents}, {"stamps", g.writeStamps},
		{"locks", g.writeLocks}, {"memory", g.writeMemory}, {"signals", g.writeSignals},
		{"telemetry", g.writeTelemetry}, {"git", g.writeGit},
	}
	for _, s := range steps {
		if err := s.fn(); err != nil {
			return nil, fmt.Errorf("wsgen %s: %w", s.name, err)
		}
	}
	return g.m, nil
}

type gen struct {
	dir  string
	opts Options
	rng  *rand.Rand
	m    *Manifest
	wus  []*wu
	// inits are the initiatives' member WUs (by index), in id order.
	inits [][]*wu
}

// plan decides every WU's role, lane, dates and links, oldest id first.
func (g *gen) plan() {
	s := g.opts.Scale
	gone, closed := baseGone*s, baseClosed*s
	total := baseWUs*s + gone
	inProgress := inProgressMax
	active := inProgress + baseBlocked*s + baseReady*s
	legacyEnd := total * 15 / 100
	createFrom := legacyEnd + (total-legacyEnd)/2 // newer WUs were made by wu:create
	tailFrom := total - active*3

	roles := make([]role, total+1)
	// Active work sits among the newest ids, closed and gone ones anywhere after the
	// legacy era (gone ones in it too), never in the active tail.
	tail := g.rng.Perm(total - tailFrom)
	for i, k := range tail[:active] {
		r := roleReady
		switch {
		case i < inProgress:
			r = roleInProgress
		case i < inProgress+baseBlocked*s:
			r = roleBlocked
		}
		roles[tailFrom+1+k] = r
	}
	mid := g.rng.Perm(tailFrom - 1)
	for i, k := range mid[:gone+closed] {
		n := 1 + k
		switch {
		case i < gone:
			roles[n] = roleGone
		case n <= legacyEnd:
			roles[n] = roleClosedUnclaimed
		case i < gone+closed/2:
			roles[n] = roleClosedReleased
		default:
			roles[n] = roleClosedUnclaimed
		}
	}

	start := now.AddDate(0, 0, -historyDays)
	spanHours := float64((historyDays - 3) * 24)
	inProgLanes := g.rng.Perm(15) // Framework lanes (lock_policy all): one WU in progress each
	types := []string{"feature", "feature", "feature", "bug", "bug", "refactor", "chore", "tooling", "documentation", "process"}
	used := 0
	for n := 1; n <= total; n++ {
		w := &wu{n: n, id: fmt.Sprintf("WU-%d", n), role: roles[n], init: -1,
			typ: types[g.rng.IntN(len(types))], priority: fmt.Sprintf("P%d", []int{0, 1, 1, 2, 2, 2, 2, 3}[g.rng.IntN(8)])}
		if w.role == roleDone && n <= legacyEnd {
			w.role = roleLegacy
		}
		w.created = start.Add(time.Duration(float64(n-1) / float64(total) * spanHours * float64(time.Hour))).
			Add(time.Duration(g.rng.IntN(8*60)) * time.Minute).Truncate(time.Millisecond)
		w.createEv = n > createFrom && w.role != roleLegacy
		switch w.role {
		case roleInProgress:
			w.lane = inProgLanes[used]
			used++
		case roleBlocked:
			w.lane = 15 + g.rng.IntN(5) // Operations (lock_policy active)
		default:
			w.lane = g.rng.IntN(len(lanes))
		}
		switch {
		case w.role == roleInProgress || w.role == roleBlocked:
			if w.typ == "documentation" {
				w.typ = "feature" // their lanes are chosen for their lock policy
			}
		case w.typ == "documentation":
			w.lane = 20 // Content: Documentation
		}
		// Claimed between one hour and three days after creation, at a working hour.
		w.claimed = w.created.Add(time.Duration(1+g.rng.IntN(72)) * time.Hour).Add(time.Duration(g.rng.IntN(60000)) * time.Millisecond)
		switch w.role {
		case roleInProgress:
			w.claimed = now.Add(-time.Duration(20+g.rng.IntN(90)) * time.Minute)
			if w.created.After(w.claimed) {
				w.created = w.claimed.Add(-48 * time.Hour)
			}
		case roleBlocked, roleReady:
			if w.claimed.After(now.Add(-2 * time.Hour)) {
				w.claimed = now.Add(-3 * time.Hour)
			}
		case roleDone:
			if g.rng.IntN(100) < 12 {
				// Completed the same day, recorded as a date only: claim in the morning.
				// The morning after creation, so the claim never precedes it.
				day := w.created.Truncate(24 * time.Hour).Add(24 * time.Hour)
				w.claimed = day.Add(time.Duration(8*60+g.rng.IntN(4*60)) * time.Minute)
				w.completed = w.claimed.Add(time.Duration(30+g.rng.IntN(5*60)) * time.Minute)
				w.dateOnly = true
			} else {
				w.completed = w.claimed.Add(time.Duration(2*60+g.rng.IntN(70*60)) * time.Minute)
			}
		case roleLegacy:
			w.completed = w.created.Add(time.Duration(24+g.rng.IntN(24*10)) * time.Hour)
			w.dateOnly = true
		}
		if !w.completed.IsZero() && w.completed.After(now.Add(-time.Hour)) {
			// Nothing completes in the future: the newest done WUs end an hour ago.
			w.completed = now.Add(-time.Hour)
			if !w.claimed.Before(w.completed) {
				w.claimed = w.completed.Add(-3 * time.Hour)
			}
			w.dateOnly = w.role == roleLegacy
		}
		g.wus = append(g.wus, w)
	}

	// Ready WUs wait for earlier WUs that still exist.
	for _, w := range g.wus {
		if w.role != roleReady || g.rng.IntN(3) == 0 {
			continue
		}
		for k := 0; k < 1+g.rng.IntN(2); k++ {
			d := g.wus[w.n-2-g.rng.IntN(40)]
			if d.role != roleGone && !contains(w.blockedBy, d.id) {
				w.blockedBy = append(w.blockedBy, d.id)
			}
		}
	}

	// Initiatives take consecutive runs of the post-legacy WUs, one WU in five left out;
	// the last two are new and still empty.
	nInits := baseInitiatives * s
	g.inits = make([][]*wu, nInits)
	chunk := (total - legacyEnd) / (nInits - 2)
	for _, w := range g.wus[legacyEnd:] {
		k := (w.n - legacyEnd - 1) / chunk
		if k >= nInits-2 || w.n%5 == 0 {
			continue
		}
		w.init = k
		w.initField = w.role == roleGone || g.rng.IntN(10) < 7
		g.inits[k] = append(g.inits[k], w)
	}
	for _, members := range g.inits {
		phases := phaseCount(members)
		for i, w := range members {
			if phases > 0 {
				w.phase = 1 + i*phases/len(members)
			}
		}
	}

	m := g.m
	for _, l := range lanes {
		m.Lanes = append(m.Lanes, l.name)
	}
	for _, p := range subLanes {
		m.SubLanes = append(m.SubLanes, [2]string{lanes[p[0]].name, lanes[p[1]].name})
	}
	for i, w := range g.wus {
		switch w.role {
		case roleInProgress:
			m.InProgress = append(m.InProgress, w.id)
			m.Worktrees = append(m.Worktrees, g.worktree(w))
		case roleBlocked:
			m.Blocked = append(m.Blocked, w.id)
		case roleReady:
			m.Ready = append(m.Ready, w.id)
		case roleDone, roleLegacy:
			m.Done = append(m.Done, w.id)
			if w.dateOnly && w.role == roleDone {
				m.DateOnlyCompletion = append(m.DateOnlyCompletion, w.id)
			}
			if w.role == roleLegacy {
				m.Legacy = append(m.Legacy, w.id)
			}
		case roleClosedReleased:
			m.Closed = append(m.Closed, w.id)
			m.ReleasedThenClosed = append(m.ReleasedThenClosed, w.id)
		case roleClosedUnclaimed:
			m.Closed = append(m.Closed, w.id)
		case roleGone:
			m.Gone = append(m.Gone, w.id)
			if i%3 != 0 {
				m.OrphanStamps = append(m.OrphanStamps, w.id)
			}
			if w.init >= 0 {
				id := initID(w.init)
				m.GoneListedBy[id] = append(m.GoneListedBy[id], w.id)
			}
		}
		if w.role != roleGone {
			m.WUs++
		}
	}
	for k := range g.inits {
		m.InitiativeIDs = append(m.InitiativeIDs, initID(k))
	}
	m.Initiatives = nInits
}

// phaseCount is how many phases an initiative has: none for the empty ones, else 1–3.
func phaseCount(members []*wu) int {
	if len(members) == 0 {
		return 0
	}
	return 1 + members[0].n%3
}

func initID(k int) string { return fmt.Sprintf("INIT-%03d", k+1) }

func (g *gen) worktree(w *wu) string {
	return delivery.WorktreePath("worktrees/", lanes[w.lane].name, w.id)
}

func (g *gen) branch(w *wu) string { return delivery.LaneBranch("lane/", lanes[w.lane].name, w.id) }

// write writes one file under the workspace, creating its directory.
func (g *gen) write(rel string, data []byte) error {
	p := filepath.Join(g.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

func (g *gen) writeConfig() error {
	var b strings.Builder
	b.WriteString("id: lumenflow-mature\nname: LumenFlow (mature)\n")
	b.WriteString("# Kernel keys are kept as written and ignored by delivery.\npacks:\n  - id: software-delivery\n    version: 2.4.0\n")
	b.WriteString("software_delivery:\n  directories:\n")
	fmt.Fprintf(&b, "    wuDir: %s\n    initiativesDir: %s\n    plansDir: %s\n    worktrees: worktrees/\n", wuDir, initiativesDir, plansDir)
	b.WriteString("  lanes:\n    definitions:\n")
	for _, l := range lanes {
		fmt.Fprintf(&b, "      - name: %s\n        wip_limit: %d\n        lock_policy: %s\n        code_paths:\n", quote(l.name), l.wip, l.policy)
		for _, p := range l.paths {
			fmt.Fprintf(&b, "          - %s\n", quote(p))
		}
	}
	b.WriteString("  gates:\n    commands:\n      - name: format\n        run: 'true'\n      - name: lint\n        run: 'true'\n" +
		"      - name: test\n        run: 'true'\n      - name: docs-lint\n        run: 'true'\n        docs_only: true\n")
	b.WriteString("  git:\n    auto_commit: true\n    push: false\n")
	if err := g.write("workspace.yaml", []byte(b.String())); err != nil {
		return err
	}
	// The runtime state workspace:init ignores (corpus §3.8).
	ignore := "/worktrees/\n/.lumenflow/memory/\n/.lumenflow/locks/\n/.lumenflow/sessions/\n/.lumenflow/telemetry/\n" +
		"/.lumenflow/incidents/\n/.lumenflow/snapshots/\n/.lumenflow/archive/\n/.lumenflow/state/delegation-registry.jsonl\n" +
		"/.lumenflow/skip-gates-audit.ndjson\nnode_modules/\n"
	return g.write(".gitignore", []byte(ignore))
}

// writeSources writes a few files under every lane's code paths (so sub-lane overlaps
// are real), plus root files no lane owns.
func (g *gen) writeSources() error {
	for i, l := range lanes {
		for _, p := range l.paths {
			base := strings.TrimSuffix(p, "/**")
			for k := 0; k < 6; k++ {
				rel := path.Join(base, "src", fmt.Sprintf("%s-%d.ts", delivery.Kebab(l.name), k))
				if err := g.write(rel, []byte(fmt.Sprintf("// lane %d file %d\nexport const id = %d;\n", i, k, k))); err != nil {
					return err
				}
			}
		}
	}
	for _, f := range []string{"README.md", "package.json", "pnpm-workspace.yaml", "docs/README.md", plansDir + "/INIT-001-plan.md"} {
		if err := g.write(f, []byte("# "+f+"\n")); err != nil {
			return err
		}
	}
	return nil
}

var words = []string{"validation", "lifecycle", "recovery", "schema", "locks", "worktrees", "events", "signals",
	"memory", "gates", "metrics", "initiatives", "templates", "docs", "release", "telemetry", "prompts", "packs"}

func (g *gen) title(w *wu) string {
	return fmt.Sprintf("%s: %s %s for %s", strings.ToUpper(w.typ[:1])+w.typ[1:], words[w.n%len(words)],
		[]string{"cleanup", "support", "hardening", "rework", "fix", "docs"}[w.n%6], lanes[w.lane].name)
}

// writeWUs writes every spec that still exists, in the style of its era.
func (g *gen) writeWUs() error {
	for _, w := range g.wus {
		if w.role == roleGone {
			continue
		}
		if err := g.write(path.Join(wuDir, w.id+".yaml"), []byte(g.wuYAML(w))); err != nil {
			return err
		}
	}
	return nil
}

func (g *gen) wuYAML(w *wu) string {
	l := lanes[w.lane]
	var b strings.Builder
	kv := func(k, v string) { fmt.Fprintf(&b, "%s: %s\n", k, v) }
	list := func(k string, items []string) {
		if len(items) == 0 {
			fmt.Fprintf(&b, "%s: []\n", k)
			return
		}
		fmt.Fprintf(&b, "%s:\n", k)
		for _, it := range items {
			fmt.Fprintf(&b, "  - %s\n", quote(it))
		}
	}
	kv("id", w.id)
	kv("title", quote(g.title(w)))
	kv("lane", quote(l.name))
	kv("type", w.typ)
	status := map[role]string{roleDone: "done", roleLegacy: "done", roleReady: "ready", roleBlocked: "blocked",
		roleInProgress: "in_progress", roleClosedReleased: "superseded", roleClosedUnclaimed: "cancelled"}[w.role]
	if w.role == roleLegacy && w.n%4 == 0 {
		status = "completed" // the legacy spelling of done
	}
	if w.role == roleClosedUnclaimed && w.n%3 == 0 {
		status = "superseded"
	}
	kv("status", status)
	kv("priority", w.priority)
	kv("created", delivery.Date(w.created))
	kv("description", quote(fmt.Sprintf("Deliver %s in %s so that the %s work for WU %d is complete, tested and documented.",
		strings.ToLower(g.title(w)), l.name, words[(w.n+3)%len(words)], w.n)))
	list("acceptance", []string{fmt.Sprintf("%s behaves as described", words[w.n%len(words)]), "Tests cover the change"})
	code := path.Join(strings.TrimSuffix(l.paths[0], "/**"), "src", fmt.Sprintf("wu-%d.ts", w.n))
	list("code_paths", []string{code})
	if w.role == roleLegacy {
		// Legacy specs: no tests map, notes as a list, no exposure, no claim fields.
		list("artifacts", []string{delivery.StampRel(w.id)})
		if w.n%3 == 0 {
			b.WriteString("notes:\n  - Migrated from the old tracker\n  - Owner left the project\n")
		}
		kv("requires_review", "false")
		kv("locked", "true")
		kv("completed", delivery.Date(w.completed))
		return b.String()
	}
	b.WriteString("tests:\n  manual: []\n  unit:\n")
	fmt.Fprintf(&b, "    - %s\n  e2e: []\n", quote(strings.TrimSuffix(code, ".ts")+".test.ts"))
	list("artifacts", []string{delivery.StampRel(w.id)})
	list("dependencies", nil)
	list("risks", nil)
	kv("requires_review", fmt.Sprint(w.n%7 == 0))
	kv("exposure", []string{"backend-only", "api", "ui", "documentation"}[w.n%4])
	if w.init >= 0 && w.initField {
		kv("initiative", initID(w.init))
		if w.phase > 0 {
			kv("phase", fmt.Sprint(w.phase))
		}
	}
	if len(w.blockedBy) > 0 {
		list("blocked_by", w.blockedBy)
	}
	if w.n%11 == 0 {
		kv("sizing_estimate", "M") // a key delivery keeps and never reads
	}
	switch w.role {
	case roleReady, roleClosedUnclaimed:
		return b.String()
	case roleBlocked:
		kv("claimed_mode", "branch-only")
		kv("claimed_at", delivery.Timestamp(w.claimed))
		kv("session_id", g.uuid())
		kv("blocked_reason", quote("waiting for "+words[w.n%len(words)]+" review"))
		return b.String()
	case roleClosedReleased:
		// Claimed, released, then superseded: the claim fields were cleared on release.
		kv("notes", quote(fmt.Sprintf("Superseded by WU-%d", w.n+1+w.n%5)))
		return b.String()
	}
	kv("claimed_mode", "worktree")
	kv("worktree_path", g.worktree(w))
	kv("claimed_branch", g.branch(w))
	kv("claimed_at", delivery.Timestamp(w.claimed))
	kv("session_id", g.uuid())
	if w.role == roleInProgress {
		return b.String()
	}
	kv("locked", "true")
	if !w.dateOnly {
		kv("completed_at", delivery.Timestamp(w.completed))
	} else if w.n%2 == 0 {
		kv("completed_at", quote(delivery.Date(w.completed))) // a date where a timestamp belongs
	}
	kv("completed", delivery.Date(w.completed))
	return b.String()
}

func (g *gen) uuid() string {
	a, c := g.rng.Uint64(), g.rng.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xfff, 0x8000|(c>>48)&0x3fff, c&0xffffffffffff)
}

// writeInitiatives writes each initiative with its explicit wus list: every member,
// gone ones included (the list was never cleaned when their specs went).
func (g *gen) writeInitiatives() error {
	for k, members := range g.inits {
		id := initID(k)
		allDone, started := len(members) > 0, false
		for _, w := range members {
			if w.role == roleGone {
				continue
			}
			done := w.role == roleDone || w.role == roleClosedReleased || w.role == roleClosedUnclaimed
			allDone = allDone && done
			started = started || w.role != roleReady
		}
		status := "open"
		switch {
		case len(members) == 0:
			status = "draft"
		case allDone:
			status = "done"
		case started:
			status = "in_progress"
		}
		var b strings.Builder
		fmt.Fprintf(&b, "id: %s\nslug: %s-%d\ntitle: %s\n", id, words[k%len(words)], k+1,
			quote(fmt.Sprintf("Initiative %d: %s overhaul", k+1, words[k%len(words)])))
		fmt.Fprintf(&b, "description: %s\nstatus: %s\npriority: P%d\nowner: %s\n", quote("Bring "+words[k%len(words)]+" up to date across the framework."),
			status, 1+k%3, owner)
		created := now.AddDate(0, 0, -historyDays)
		if len(members) > 0 {
			created = members[0].created
		}
		fmt.Fprintf(&b, "created: %s\n", delivery.Date(created))
		if phases := phaseCount(members); phases > 0 {
			b.WriteString("phases:\n")
			for p := 1; p <= phases; p++ {
				fmt.Fprintf(&b, "  - id: %d\n    title: %s\n    status: %s\n", p, quote(fmt.Sprintf("Phase %d", p)),
					map[bool]string{true: "done", false: "in_progress"}[allDone])
			}
		}
		b.WriteString("success_metrics:\n  - Every WU done and stamped\nlabels: []\n")
		if len(members) > 0 {
			b.WriteString("wus:\n")
			for _, w := range members {
				fmt.Fprintf(&b, "  - %s\n", w.id)
			}
		}
		if err := g.write(path.Join(initiativesDir, id+".yaml"), []byte(b.String())); err != nil {
			return err
		}
	}
	return nil
}

// writeEvents writes the log in time order (stable on WU number). Legacy WUs have none.
func (g *gen) writeEvents() error {
	type stamped struct {
		at time.Time
		n  int
		ev delivery.Event
	}
	var all []stamped
	add := func(w *wu, at time.Time, ev delivery.Event) {
		ev.WUID, ev.Timestamp = w.id, delivery.Timestamp(at)
		all = append(all, stamped{at, w.n, ev})
	}
	for _, w := range g.wus {
		if w.role == roleLegacy || w.role == roleGone {
			continue
		}
		l, title := lanes[w.lane].name, g.title(w)
		if w.createEv {
			add(w, w.created, delivery.Event{Type: delivery.EventCreate, Lane: l, Title: title})
		}
		if w.role == roleReady || w.role == roleClosedUnclaimed {
			continue
		}
		add(w, w.claimed, delivery.Event{Type: delivery.EventClaim, Lane: l, Title: title})
		switch w.role {
		case roleClosedReleased:
			add(w, w.claimed.Add(5*time.Hour), delivery.Event{Type: delivery.EventRelease, Reason: "superseded by a broader WU"})
		case roleBlocked:
			add(w, w.claimed.Add(time.Hour), delivery.Event{Type: delivery.EventBlock, Reason: "waiting for review"})
		case roleInProgress:
			add(w, w.claimed.Add(10*time.Minute), delivery.Event{Type: delivery.EventCheckpoint,
				Note: "[wu:brief] generated via claude-code", Progress: "wu:brief executed", NextSteps: "client=claude-code"})
		case roleDone:
			// Checkpoints, blocks and unblocks fall strictly inside the claim.
			d := w.completed.Sub(w.claimed)
			if w.n%4 == 0 {
				add(w, w.claimed.Add(d/2), delivery.Event{Type: delivery.EventCheckpoint, Note: "halfway: " + words[w.n%len(words)] + " done"})
			}
			if w.n%17 == 0 {
				add(w, w.claimed.Add(d/4), delivery.Event{Type: delivery.EventBlock, Reason: "waiting for CI"})
				add(w, w.claimed.Add(d*3/4), delivery.Event{Type: delivery.EventUnblock})
			}
			add(w, w.completed, delivery.Event{Type: delivery.EventComplete})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if !all[i].at.Equal(all[j].at) {
			return all[i].at.Before(all[j].at)
		}
		return all[i].n < all[j].n
	})
	var b strings.Builder
	for _, s := range all {
		raw, err := s.ev.MarshalJSON()
		if err != nil {
			return err
		}
		if err := s.ev.Validate(); err != nil {
			return fmt.Errorf("event for %s: %w", s.ev.WUID, err)
		}
		b.Write(raw)
		b.WriteByte('\n')
	}
	g.m.Events = len(all)
	return g.write(delivery.EventsFile, []byte(b.String()))
}

// writeStamps stamps every done WU, and the gone WUs whose stamp was left behind.
func (g *gen) writeStamps() error {
	orphan := map[string]bool{}
	for _, id := range g.m.OrphanStamps {
		orphan[id] = true
	}
	for _, w := range g.wus {
		done := w.role == roleDone || w.role == roleLegacy
		if !done && !orphan[w.id] {
			continue
		}
		date := delivery.Date(w.completed)
		if orphan[w.id] {
			date = delivery.Date(w.created.Add(48 * time.Hour))
		}
		if err := g.write(delivery.StampRel(w.id), delivery.StampContent(w.id, g.title(w), date)); err != nil {
			return err
		}
		g.m.Stamps++
	}
	return g.write(delivery.StampsDir+"/.gitkeep", nil)
}

// writeLocks writes the fresh lane lock of every WU in progress (corpus §1.11).
func (g *gen) writeLocks() error {
	for _, w := range g.wus {
		if w.role != roleInProgress {
			continue
		}
		raw, err := storage.MarshalRecord(lanelock.Lock{Lane: lanes[w.lane].name, WUID: w.id, Owner: owner,
			Timestamp: delivery.Timestamp(w.claimed)})
		if err != nil {
			return err
		}
		if err := g.write(lanelock.Rel(lanes[w.lane].name), raw); err != nil {
			return err
		}
		if !g.opts.Git {
			if err := os.MkdirAll(filepath.Join(g.dir, filepath.FromSlash(g.worktree(w))), 0o755); err != nil {
				return err
			}
		}
	}
	return nil
}

// existing returns the WUs with a spec, for memory and signals to point at.
func (g *gen) existing() []*wu {
	var out []*wu
	for _, w := range g.wus {
		if w.role != roleGone {
			out = append(out, w)
		}
	}
	return out
}

// writeMemory writes memory nodes over the history (some updated by a later line) and a
// few relationships.
func (g *gen) writeMemory() error {
	ex := g.existing()
	n := baseMemory * g.opts.Scale
	types := []string{"discovery", "discovery", "checkpoint", "note", "session", "summary"}
	var b strings.Builder
	var ids []string
	for i := 0; i < n; i++ {
		w := ex[len(ex)*i/n]
		if k := len(g.m.WithMemory); k == 0 || g.m.WithMemory[k-1] != w.id {
			g.m.WithMemory = append(g.m.WithMemory, w.id)
		}
		typ := types[g.rng.IntN(len(types))]
		life, _ := delivery.LifecycleOf(typ)
		node := &delivery.MemNode{ID: fmt.Sprintf("mem-%04x", (i*40503+7)&0xffff), Type: typ, Lifecycle: life,
			Content: fmt.Sprintf("%s note on %s for %s", typ, words[i%len(words)], w.id), CreatedAt: delivery.Timestamp(w.created.Add(2 * time.Hour)),
			WUID: w.id, Metadata: &delivery.Object{}}
		if i%5 == 0 {
			node.Metadata.Set("priority", fmt.Sprintf("P%d", i%4))
		}
		if i%9 == 0 {
			node.Tags = []string{words[(i+1)%len(words)]}
		}
		if err := appendRecord(&b, node); err != nil {
			return err
		}
		if i%10 == 0 { // a later full version of the same node: the last line wins
			upd := node.Clone()
			upd.UpdatedAt = delivery.Timestamp(w.created.Add(30 * time.Hour))
			upd.Metadata.Set("status", "closed")
			if err := appendRecord(&b, upd); err != nil {
				return err
			}
		}
		ids = append(ids, node.ID)
	}
	g.m.MemoryNodes = n
	if err := g.write(delivery.MemoryFile, []byte(b.String())); err != nil {
		return err
	}
	b.Reset()
	for i := 1; i < len(ids); i += 6 {
		if err := appendRecord(&b, delivery.Relationship{FromID: ids[i], ToID: ids[i-1], Type: "discovered_from",
			CreatedAt: delivery.Timestamp(now.AddDate(0, 0, -historyDays+i%historyDays))}); err != nil {
			return err
		}
	}
	if err := g.write(delivery.RelationsFile, []byte(b.String())); err != nil {
		return err
	}
	return g.write(".lumenflow/memory/config.yaml", []byte("version: 1\nretention:\n  ephemeral: 0\n  session: 3600\n  wu: 604800\n  project: -1\n"))
}

// writeSignals writes signals over the last 90 days: half read in place, a fifth read by
// receipt, the rest unread.
func (g *gen) writeSignals() error {
	ex := g.existing()
	n := baseSignals * g.opts.Scale
	var sigs, receipts strings.Builder
	for i := 0; i < n; i++ {
		w := ex[len(ex)-1-g.rng.IntN(len(ex)/5)]
		at := now.Add(-time.Duration(90*24*(n-i)/n) * time.Hour).Add(-time.Duration(g.rng.IntN(3600)) * time.Second).Truncate(time.Millisecond)
		id := fmt.Sprintf("sig-%08x", uint32(i)*2654435761+12345)
		s := delivery.Signal{ID: id, Message: fmt.Sprintf("%s ready for %s", words[i%len(words)], w.id), CreatedAt: delivery.Timestamp(at),
			Read: i%2 == 0, Type: delivery.DefaultSignalType, Sender: delivery.DefaultSignalSender, Origin: delivery.SignalOriginLocal,
			RemoteID: id, WUID: w.id, Lane: lanes[w.lane].name}
		if i%7 == 0 {
			s.WUID, s.Lane = "", "" // a broadcast
		}
		if err := appendRecord(&sigs, s); err != nil {
			return err
		}
		if i%5 == 1 {
			if err := appendRecord(&receipts, delivery.SignalReceipt{SignalID: id, ReadAt: delivery.Timestamp(at.Add(time.Hour))}); err != nil {
				return err
			}
		}
	}
	g.m.Signals = n
	if err := g.write(delivery.SignalsFile, []byte(sigs.String())); err != nil {
		return err
	}
	return g.write(delivery.ReceiptsFile, []byte(receipts.String()))
}

// writeTelemetry records three gate runs for each WU completed in the last 60 days.
func (g *gen) writeTelemetry() error {
	var b strings.Builder
	for _, w := range g.wus {
		if w.role != roleDone || w.completed.Before(now.AddDate(0, 0, -60)) {
			continue
		}
		id, l := w.id, lanes[w.lane].name
		for k, name := range []string{"format", "lint", "test"} {
			rec := delivery.GateTelemetry{Timestamp: delivery.Timestamp(w.completed.Add(-time.Duration(10-k) * time.Minute)),
				WUID: &id, Lane: &l, GateName: name, Passed: w.n%13 != 0 || name != "test", DurationMS: int64(400 + g.rng.IntN(20000))}
			if err := appendRecord(&b, rec); err != nil {
				return err
			}
		}
	}
	return g.write(delivery.GatesTelemetry, []byte(b.String()))
}

func appendRecord(b *strings.Builder, v any) error {
	raw, err := storage.MarshalRecord(v)
	if err != nil {
		return err
	}
	b.Write(raw)
	return nil
}

// quote writes a YAML single-quoted scalar when the plain form could be misread.
func quote(s string) string {
	plain := s != "" && !strings.ContainsAny(s, ":#'\"{}[],&*!|>%@`") && strings.TrimSpace(s) == s &&
		!strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "?")
	if plain {
		if _, isNum := numberLike(s); !isNum {
			return s
		}
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// numberLike reports scalars YAML would read as something other than a string.
func numberLike(s string) (string, bool) {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~":
		return s, true
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' && r != '-' {
			return s, false
		}
	}
	return s, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
