package workspace

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
)

// open resolves the workspace of the directory the command was started in (spec §1.1).
func open(c *convention.Call) (*delivery.Workspace, error) {
	cwd, err := c.Dir()
	if err != nil {
		return nil, err
	}
	return delivery.Open(c.Context(), cwd, c.LookupEnv)
}

// runtimeIgnores are the .gitignore lines for runtime state (spec §3.8): workspace:init
// appends the missing ones and doctor warns about them.
var runtimeIgnores = []string{"/worktrees/", "/.lumenflow/memory/", "/.lumenflow/locks/",
	"/.lumenflow/sessions/", "/.lumenflow/telemetry/", "/.lumenflow/incidents/", "/.lumenflow/snapshots/",
	"/.lumenflow/archive/", "/.lumenflow/state/delegation-registry.jsonl", "/.lumenflow/skip-gates-audit.ndjson"}
