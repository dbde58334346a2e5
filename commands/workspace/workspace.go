package workspace

// runtimeIgnores are the .gitignore lines for runtime state (spec §3.8): workspace:init
// appends the missing ones and doctor warns about them.
var runtimeIgnores = []string{"/worktrees/", "/.lumenflow/memory/", "/.lumenflow/locks/",
	"/.lumenflow/sessions/", "/.lumenflow/telemetry/", "/.lumenflow/incidents/", "/.lumenflow/snapshots/",
	"/.lumenflow/archive/", "/.lumenflow/state/delegation-registry.jsonl", "/.lumenflow/skip-gates-audit.ndjson"}
