package delivery

// Enumerations of corpus §1.5 and §1.6, in documented order.
var (
	// WUTypes are the WU type values.
	WUTypes = []string{"feature", "bug", "documentation", "process", "tooling", "chore", "refactor", "prototype"}
	// Priorities are the WU and initiative priorities.
	Priorities = []string{"P0", "P1", "P2", "P3"}
	// Exposures are the WU exposure values.
	Exposures = []string{"ui", "api", "backend-only", "documentation"}
	// ClaimedModes are the claimed_mode values.
	ClaimedModes = []string{"worktree", "branch-only", "worktree-pr", "branch-pr"}
	// InitiativeStatuses are the initiative status values.
	InitiativeStatuses = []string{"draft", "open", "in_progress", "done", "archived"}
	// PhaseStatuses are the initiative phase status values.
	PhaseStatuses = []string{"pending", "in_progress", "done", "blocked"}
)

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}
