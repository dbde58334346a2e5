package kernel

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/journal"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Kernel is the governed call path. It is safe for concurrent use.
type Kernel struct {
	cfg       Config
	workspace string
	names     *tool.Names
	entries   map[string]*entry
	policy    []compiledRule
	log       *evidence.Log

	allowed  map[string]bool // nil: no allowlist
	disabled map[string]bool
	excluded map[string]bool
	view     *viewSet // nil: every tool (profile.go)

	// state is where the workspace's own state lives; protected lists the resolved
	// directories no path input may reach (the state, .git), writeProtected those it
	// may read but never write (the workspace's configuration directory).
	state          statedir.Dir
	protected      []string
	writeProtected []string
	writes         writeLock

	idPrefix   string
	idSeq      atomic.Uint64
	scopeCache sync.Map
	paths      pathLocks
	// shadows serve shadow-routed calls (Config.Shadow; nil: none, and New refused
	// every shadow route).
	shadows Shadows
	// hidden is LaneCall.Hidden: the state directory (lanes never change it).
	hidden []string
	// lanes are the lanes by name (lane.go); a shadow-routed call decorates its own.
	lanes map[string]Lane
	// jail is where the commands a call spawns for workspace code run (Jail).
	jail *proctree.Jail
}

// entry is one tool in the registry.
type entry struct {
	spec  tool.Spec
	route string
	// command and native are the tool's implementations (nil: none): a legacy command
	// and a native tool (Config.Tools).
	command *Source
	native  *Source
	// unavailable says why the tool is listed but refuses every call: its spec could
	// not be derived (see buildRegistry).
	unavailable string
}

// New builds a kernel. It fails on duplicate or reserved names, a route that cannot be
// served, an unusable policy, a schema that does not resolve, or an evidence log that
// cannot be opened. A command whose spec the adapter cannot derive does not fail it:
// the tool is listed with a warning (tool.Spec.Warnings) and refuses every call with
// TOOL_DISABLED. Derivation problems the adapter can work around (an unknown flag type,
// a usage text outside its grammar) only add warnings to an otherwise usable spec.
func New(cfg Config) (*Kernel, error) {
	if cfg.Workspace == "" {
		return nil, errors.New("kernel: no workspace")
	}
	ws, err := filepath.Abs(cfg.Workspace)
	if err != nil {
		return nil, fmt.Errorf("kernel: workspace: %w", err)
	}
	if cfg.MaxParallel <= 0 {
		cfg.MaxParallel = 8
	}
	if cfg.ApprovalTimeout <= 0 {
		cfg.ApprovalTimeout = 5 * time.Minute
	}
	if cfg.Policy == nil {
		cfg.Policy = DefaultPolicy()
	}
	k := &Kernel{cfg: cfg, workspace: resolvePath(ws, "."), entries: map[string]*entry{}}
	k.paths.held = map[string]chan struct{}{}
	if err := k.buildRegistry(); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	if err := k.buildLanes(); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	if err := k.checkShadowRoutes(); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	if k.policy, err = compilePolicy(cfg.Policy, k.names); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	if err := k.buildGovernance(); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	if err := k.buildView(); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	var prefix [4]byte
	_, _ = rand.Read(prefix[:])
	k.idPrefix = "call-" + hex.EncodeToString(prefix[:]) + "-"
	if err := k.findState(ws); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	if err := k.openShadows(); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	k.hidden = []string{k.state.Root}
	// A writer killed half-way left its write journal: undo its writes before any call
	// of this kernel reads the workspace (package kernel/journal).
	if _, err := journal.Recover(context.Background(), ws, nil); err != nil {
		return nil, fmt.Errorf("kernel: %w", k.closeShadows(err))
	}
	dir := cfg.Evidence.Dir
	switch {
	case dir == "":
		dir = k.state.Path(statedir.Evidence)
	case !filepath.IsAbs(dir):
		dir = filepath.Join(ws, dir)
	}
	k.log, err = evidence.Open(evidence.Config{Dir: dir, CheckpointEvery: cfg.Evidence.CheckpointEvery, Sync: cfg.Evidence.Sync, Witness: cfg.Evidence.Witness,
		OnCheckpoint: cfg.Evidence.OnCheckpoint})
	if err != nil {
		return nil, fmt.Errorf("kernel: %w", k.closeShadows(err))
	}
	k.jail = &proctree.Jail{
		Hide:       append([]string{k.state.Root, dir}, cfg.Hidden...),
		ReadOnly:   append(append([]string{}, k.state.Git...), filepath.Join(ws, statedir.LegacyDir)),
		Unconfined: cfg.UnconfinedWorkspaceCode,
	}
	if w := cfg.Evidence.Witness; w != "" {
		if _, err := os.Stat(w); err == nil { // a missing one must not become a directory
			k.jail.ReadOnly = append(k.jail.ReadOnly, w)
		}
	}
	return k, nil
}

// Jail returns where the commands a call spawns for workspace code run (gates, the
// command of wu:sandbox; package proctree): bubblewrap over the host's file system with
// the state directory, the evidence directory and Config.Hidden covered by empty
// tmpfs, the repository's .git, the workspace's .cmdbridge and the witness read-only,
// in a pid namespace of its own. Every lane hands it on: in the call's context for the
// in-process lanes, in the environment (proctree.JailEnv) for the subprocess lane.
func (k *Kernel) Jail() proctree.Jail { return *k.jail }

func (k *Kernel) buildRegistry() error {
	routes := DefaultRoutes()
	var err error
	var cmds, natives []*Source
	tools := slices.Clone(k.cfg.Tools) // the entries point here, not into the host's slice
	for i := range tools {
		switch t := &tools[i]; {
		case t.Spec == nil:
			return fmt.Errorf("tool %s: no spec", t.Name)
		case t.Kind == SourceCommand:
			cmds = append(cmds, t)
		case t.Kind == SourceNative:
			natives = append(natives, t)
		default:
			return fmt.Errorf("tool %s: unknown kind %q (want %s or %s)", t.Name, t.Kind, SourceCommand, SourceNative)
		}
	}
	// Each name appears once per kind; a native tool with a command's exact name is
	// that command's migrated implementation, not a duplicate. Different spellings of
	// one name across kinds are caught by tool.NewNames.
	var all []string
	for _, c := range cmds {
		if _, dup := k.entries[c.Name]; dup {
			return fmt.Errorf("tool %s: given twice", c.Name)
		}
		all = append(all, c.Name)
		k.entries[c.Name] = &entry{command: c}
	}
	for _, t := range natives {
		if e, ok := k.entries[t.Name]; ok {
			if e.native != nil {
				return fmt.Errorf("tool %s: given twice", t.Name)
			}
			e.native = t
			continue
		}
		all = append(all, t.Name)
		k.entries[t.Name] = &entry{native: t}
	}
	if k.names, err = tool.NewNames(all); err != nil {
		return err
	}
	// A command tree's aliases are spellings of their tool: calls resolve them, lists
	// show only the name. An alias that would shadow a name (or another tool's alias)
	// resolves to nothing.
	aliases := map[string]string{}
	var ambiguous []string // the aliases that resolve to nothing, warned about below
	for _, c := range cmds {
		for _, a := range c.Aliases {
			if prev, dup := aliases[a]; dup && prev != c.Name {
				ambiguous = append(ambiguous, a) // two tools claim one spelling
			}
			aliases[a] = c.Name
		}
	}
	for _, a := range ambiguous {
		delete(aliases, a)
	}
	if len(aliases) > 0 {
		var dropped []string
		k.names, dropped = k.names.WithAliases(aliases)
		ambiguous = append(ambiguous, dropped...)
	}
	if k.names, err = k.names.WithPack(k.cfg.Pack); err != nil {
		return err
	}
	// The base routes (the native registry's) name tools of their own corpus: one this
	// kernel does not serve (a view, or commands from another registry) is skipped. A
	// workspace's routes must name a tool it serves.
	for name, r := range k.cfg.BaseRoutes {
		if canon, ok := k.names.Resolve(name); ok {
			routes.Routes[canon] = r
		}
	}
	override := map[string]string{}
	for spelling, r := range k.cfg.Routes {
		name, ok := k.names.Resolve(spelling)
		if !ok {
			return fmt.Errorf("route for unknown tool %q", spelling)
		}
		override[name] = r
	}
	for name, e := range k.entries {
		if e.route, err = routes.route(name, e.command != nil, e.native != nil, override); err != nil {
			return err
		}
		impl := e.native
		if e.command != nil && (e.route != RouteNative || e.native == nil) {
			impl = e.command
		}
		if e.spec, err = impl.Spec(); err != nil {
			// One command whose spec cannot be derived must not sink the registry: it
			// is listed with the reason and refuses every call (govern).
			e.spec, e.unavailable = unavailableSpec(impl, err), "its spec could not be derived: "+err.Error()
		}
		if e.spec.Domain == "" {
			e.spec.Domain = impl.Domain
		}
		if e.spec.Name != name {
			return fmt.Errorf("tool %s: spec names itself %q", name, e.spec.Name)
		}
		if e.spec.InputSchema == nil {
			return fmt.Errorf("tool %s: no input schema", name)
		}
		if e.spec.DefaultTimeout <= 0 {
			e.spec.DefaultTimeout = tool.DefaultTimeout
		}
		if e.spec.MaxTimeout <= 0 {
			e.spec.MaxTimeout = tool.MaxTimeout
		}
		if err := checkPathProps(&e.spec); err != nil {
			return err
		}
		if err := e.spec.CheckEffects(); err != nil {
			return err
		}
	}
	k.warnAmbiguousAliases(cmds, ambiguous)
	return nil
}

// warnAmbiguousAliases adds to each command's spec a warning per alias of its that
// resolves to nothing, naming what it shadows, so `tools list` and `status` show why
// the spelling answers TOOL_NOT_FOUND.
func (k *Kernel) warnAmbiguousAliases(cmds []*Source, ambiguous []string) {
	if len(ambiguous) == 0 {
		return
	}
	claims := map[string][]string{} // alias key → the tools whose alias folds to it
	for _, c := range cmds {
		for _, a := range c.Aliases {
			if key := tool.Key(a); !slices.Contains(claims[key], c.Name) {
				claims[key] = append(claims[key], c.Name)
			}
		}
	}
	for _, c := range cmds {
		e := k.entries[c.Name]
		for _, a := range c.Aliases {
			if !slices.Contains(ambiguous, a) {
				continue
			}
			var shadowed []string
			if name, ok := k.names.Resolve(a); ok && name != c.Name {
				shadowed = append(shadowed, "the tool "+name)
			}
			for _, other := range claims[tool.Key(a)] {
				if other != c.Name {
					shadowed = append(shadowed, "an alias of "+other)
				}
			}
			what := strings.Join(shadowed, " and ")
			if what == "" {
				what = "another spelling"
			}
			e.spec.Warnings = append(slices.Clip(e.spec.Warnings), fmt.Sprintf("alias %q resolves to nothing: it would shadow %s", a, what))
		}
	}
}

func (k *Kernel) buildGovernance() error {
	set := func(list []string, what string) (map[string]bool, error) {
		m := make(map[string]bool, len(list))
		for _, s := range list {
			name, ok := k.names.Resolve(s)
			if !ok {
				return nil, fmt.Errorf("governance: %s lists unknown tool %q", what, s)
			}
			m[name] = true
		}
		return m, nil
	}
	var err error
	if k.cfg.Governance.Allowed != nil {
		if k.allowed, err = set(k.cfg.Governance.Allowed, "allowed"); err != nil {
			return err
		}
	}
	if k.disabled, err = set(k.cfg.Governance.Disabled, "disabled"); err != nil {
		return err
	}
	k.excluded, err = set(k.cfg.Governance.Excluded, "excluded")
	return err
}

// unavailableSpec stands in for the spec of an implementation that could not be
// described: no inputs, the worst-case annotations, and a warning carrying the error.
func unavailableSpec(impl *Source, err error) tool.Spec {
	return tool.Spec{
		Name: impl.Name, Domain: impl.Domain,
		Description: "unavailable: its spec could not be derived",
		InputSchema: &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}},
		Annotations: tool.Annotations{DestructiveHint: true, OpenWorldHint: true},
		Warnings:    []string{"unavailable, every call is refused: " + err.Error()},
	}
}

// govern returns the refusal for name, or "" when governance lets it through.
func (k *Kernel) govern(name string) string {
	switch {
	case k.excluded[name]:
		return "excluded by configuration"
	case k.entries[name] != nil && k.entries[name].unavailable != "":
		return k.entries[name].unavailable
	case k.disabled[name]:
		return "disabled by configuration"
	case k.allowed != nil && !k.allowed[name]:
		return "not in the allowed list"
	case !k.inView(name):
		return "outside this kernel's view (" + k.view.label + ")"
	}
	return ""
}

// Tools returns the specs of every tool that is not excluded and lies in the view,
// sorted by name.
func (k *Kernel) Tools() []tool.Spec {
	out := make([]tool.Spec, 0, len(k.entries))
	for _, name := range k.names.All() {
		if !k.excluded[name] && k.inView(name) {
			out = append(out, k.entries[name].spec)
		}
	}
	return out
}

// Route returns the lane a tool is routed to (any spelling).
func (k *Kernel) Route(name string) (string, bool) {
	canon, ok := k.names.Resolve(name)
	if !ok {
		return "", false
	}
	return k.entries[canon].route, true
}

// Resolve returns the canonical name of any spelling.
func (k *Kernel) Resolve(name string) (string, bool) { return k.names.Resolve(name) }

// Pack is the tool pack name (Config.Pack; empty for none).
func (k *Kernel) Pack() string { return k.cfg.Pack }

// findState locates the state directory, migrates an older in-workspace one, and
// records what path inputs may never reach.
func (k *Kernel) findState(ws string) error {
	if k.cfg.State != nil {
		k.state = *k.cfg.State
	} else {
		lookup := k.cfg.LookupEnv
		if lookup == nil {
			lookup = tool.EnvFromMap(nil)
		}
		var err error
		if k.state, err = statedir.Find(ws, lookup); err != nil {
			return err
		}
	}
	if _, err := statedir.Migrate(ws, k.state); err != nil {
		return err
	}
	for _, p := range append(k.state.Protected(), filepath.Join(ws, ".git")) {
		k.protected = append(k.protected, resolvePath(ws, p))
	}
	k.writeProtected = []string{resolvePath(ws, filepath.Join(ws, statedir.LegacyDir))}
	if err := k.state.Ensure(); err != nil {
		return err
	}
	k.writes = writeLock{lockedfile.MutexAt(k.state.Path(WriteLockFile))}
	return nil
}

// State returns the workspace's state directory.
func (k *Kernel) State() statedir.Dir { return k.state }

// Workspace returns the resolved workspace directory.
func (k *Kernel) Workspace() string { return k.workspace }

// Close signs a final checkpoint and closes the evidence log, and closes the shadow
// runs (Shadows.Close: package kernel/shadow's remove the directories they kept).
func (k *Kernel) Close() error { return k.closeShadows(k.log.Close()) }

func (k *Kernel) newID() string {
	return k.idPrefix + fmt.Sprint(k.idSeq.Add(1))
}

// pathLocks serialises calls writing the same resolved path.
type pathLocks struct {
	mu   sync.Mutex
	held map[string]chan struct{}
}

// sortedUnique is used to take path locks in one global order (no deadlock).
func sortedUnique(paths []string) []string {
	sort.Strings(paths)
	out := paths[:0]
	for i, p := range paths {
		if i == 0 || p != paths[i-1] {
			out = append(out, p)
		}
	}
	return out
}
