package commands

import (
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Default is the registry the corpus's domain packages register into.
var Default = legacy.NewRegistry()

// Register adds c to Default and panics on error; domain packages call it from init.
func Register(c legacy.Command) {
	if err := Default.Add(c); err != nil {
		panic(err)
	}
}

// Lookup finds a command in Default.
func Lookup(name string) (legacy.Command, bool) { return Default.Lookup(name) }

// All lists Default's commands sorted by name.
func All() []legacy.Command { return Default.All() }
