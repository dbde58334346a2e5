package legacy

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Command is one registered legacy command.
type Command struct {
	// Name is the canonical name (wu:create).
	Name string
	// Aliases are other names of the same command, from a command tree's aliases
	// (notes:remove for notes rm, whose alias is remove): the kernel resolves them to
	// Name, and lists only Name.
	Aliases []string
	// Domain groups commands in listings (wu, state, files, memory, …). Empty means
	// tool.Domain(Name), the part of the name before ':'; [Registry.Add] fills it in.
	Domain string
	// New builds a fresh app. Its Flags are the command's flag table.
	New func() *cli.App
	// Main runs the command on os.Args with ctx reaching the action through cli.Context.
	// It exits through cli.OsExiter and returns when the command succeeded without
	// calling it.
	Main func(ctx context.Context)

	// Program, when set, makes the command a leaf of a command tree ([FromApp]): the
	// in-process lane runs Main with os.Args = [Program, argv...], where argv holds Path
	// with the inherited flags written at their level (see FlagLevel), and the
	// subprocess lane runs `binary [prefix...] argv...`. When empty (one app per
	// command, the corpus's shape) they are [Name, argv...] and `binary [prefix...] Name
	// argv...`.
	Program string
	// Path is the leaf's subcommand names below the program (notes, add).
	Path []string
	// FlagLevel maps the name of each flag the leaf inherits to the index in Path it is
	// written before (0: an app flag, written before Path[0]). The leaf's own flags are
	// not in it: they follow the whole Path.
	FlagLevel map[string]int
	// Output is the command's output convention: OutputEnvelope ("" means it) or
	// OutputPlain.
	Output string
	// Tier is bridgecheck's verdict on the command: TierInProcess, TierSubprocess, or
	// "" when nobody analysed it (then it runs on the subprocess lane whenever a binary
	// is configured, unless the host opts in to in-process runs).
	Tier string
	// Findings are what bridgecheck charged to a subprocess-tier command, one
	// "<rule> <file>: <subject>" line each.
	Findings []string
	// Package is the import path of the package a tree leaf's action lives in ([FromApp]
	// sets it): a tier table's package verdict judges the leaf when no command verdict
	// names it.
	Package string
	// Warnings are what describing the command could not map, besides what its schema
	// derivation finds (a wrapped program's help, TreeOptions.Warnings): tools list and
	// status show them with the schema's.
	Warnings []string
}

// Output conventions of a legacy command.
const (
	// OutputEnvelope: with --json (passed when the command declares that flag) the
	// command prints one envelope {ok, command, data, error, warnings} on stdout and its
	// exit code agrees with ok (docs/adopt.md).
	OutputEnvelope = "envelope"
	// OutputPlain: exit 0 is success, whatever stdout holds; a non-zero exit is a
	// failure (docs/adopt.md).
	OutputPlain = "plain"
)

// Tiers: bridgecheck's verdicts.
const (
	// TierInProcess: bridgecheck charged nothing to the command; the adapter lane may
	// run it in-process.
	TierInProcess = "in-process"
	// TierSubprocess: bridgecheck found code the in-process costume cannot contain; the
	// command only ever runs as a process.
	TierSubprocess = "subprocess"
)

// Argv0 is os.Args[0] of an in-process run: Program for a tree leaf, else Name.
func (c Command) Argv0() string {
	if c.Program != "" {
		return c.Program
	}
	return c.Name
}

// Registry holds commands by canonical name.
type Registry struct {
	mu     sync.RWMutex
	byName map[string]Command
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byName: map[string]Command{}} }

// Add registers c, failing on an incomplete entry or a name already taken.
func (r *Registry) Add(c Command) error {
	if c.Name == "" || c.New == nil || c.Main == nil {
		return fmt.Errorf("command %q: name, constructor and main are all required", c.Name)
	}
	switch c.Output {
	case "", OutputEnvelope, OutputPlain:
	default:
		return fmt.Errorf("command %q: output convention %q is neither %q nor %q", c.Name, c.Output, OutputEnvelope, OutputPlain)
	}
	if err := checkTier(c.Name, c.Tier); err != nil {
		return err
	}
	if c.Domain == "" {
		c.Domain = tool.Domain(c.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[c.Name]; dup {
		return fmt.Errorf("command %q is registered twice", c.Name)
	}
	r.byName[c.Name] = c
	return nil
}

// Lookup returns the command with this canonical name.
func (r *Registry) Lookup(name string) (Command, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, ok := r.byName[name]
	return c, ok
}

// All returns every command sorted by name.
func (r *Registry) All() []Command {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Command, 0, len(r.byName))
	for _, c := range r.byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func checkTier(name, tier string) error {
	switch tier {
	case "", TierInProcess, TierSubprocess:
		return nil
	}
	return fmt.Errorf("command %q: tier %q is neither %q nor %q", name, tier, TierInProcess, TierSubprocess)
}

// SetTiers records bridgecheck's verdicts (a tier table, see [ParseTiers]) on the
// registered commands: a command verdict by name, else, for a command without a tier
// whose Package the table judges, the package verdict. A command verdict for a command
// the registry does not hold is an error: the table is stale.
func (r *Registry) SetTiers(t Table) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for name, c := range r.byName {
		if _, named := t.Commands[name]; named || c.Tier != "" || c.Package == "" {
			continue
		}
		if v, ok := t.Packages[c.Package]; ok {
			if err := checkTier(c.Package, v.Tier); err != nil {
				return fmt.Errorf("tier table: %w", err)
			}
			c.Tier, c.Findings = v.Tier, append([]string(nil), v.Findings...)
			r.byName[name] = c
		}
	}
	for name, v := range t.Commands {
		c, ok := r.byName[name]
		if !ok {
			return fmt.Errorf("tier table: no command %q is registered (regenerate the table)", name)
		}
		if err := checkTier(name, v.Tier); err != nil {
			return fmt.Errorf("tier table: %w", err)
		}
		c.Tier, c.Findings = v.Tier, append([]string(nil), v.Findings...)
		r.byName[name] = c
	}
	return nil
}
