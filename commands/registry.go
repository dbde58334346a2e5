package commands

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/urfave/cli/v2"
)

// Command is one registered legacy command.
type Command struct {
	// Name is the canonical name (wu:create).
	Name string
	// Domain groups commands in listings (wu, state, files, memory, …).
	Domain string
	// New builds a fresh app. Its Flags are the command's flag table.
	New func() *cli.App
	// Main runs the command on os.Args with ctx reaching the action through cli.Context.
	// It exits through cli.OsExiter and returns when the command succeeded without
	// calling it.
	Main func(ctx context.Context)
}

// Registry holds commands by canonical name.
type Registry struct {
	mu     sync.RWMutex
	byName map[string]Command
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byName: map[string]Command{}} }

// Default is the registry the corpus's domain packages register into.
var Default = NewRegistry()

// Add registers c, failing on an incomplete entry or a name already taken.
func (r *Registry) Add(c Command) error {
	if c.Name == "" || c.New == nil || c.Main == nil {
		return fmt.Errorf("command %q: name, constructor and main are all required", c.Name)
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

// Register adds c to Default and panics on error; domain packages call it from init.
func Register(c Command) {
	if err := Default.Add(c); err != nil {
		panic(err)
	}
}

// Lookup finds a command in Default.
func Lookup(name string) (Command, bool) { return Default.Lookup(name) }

// All lists Default's commands sorted by name.
func All() []Command { return Default.All() }
