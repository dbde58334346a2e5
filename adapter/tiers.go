package adapter

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

//go:generate go run ../cmd/bridgecheck -tiers tiers.json ../commands/...

// The tiers of tiers.json, bridgecheck's verdict on each legacy command.
const (
	// TierInProcess: bridgecheck charged nothing to the command; the adapter lane runs it.
	TierInProcess = "in-process"
	// TierSubprocess: bridgecheck found code unsafe in-process; [Call] serves the command
	// on the subprocess lane even when the adapter lane was asked for.
	TierSubprocess = "subprocess"
)

// ReasonTier is the metadata "reason" of a call [Call] moved to the subprocess lane
// because of the command's tier.
const ReasonTier = "tier"

//go:embed tiers.json
var tiersJSON []byte

type tierEntry struct {
	Tier     string   `json:"tier"`
	Findings []string `json:"findings"`
}

// tierTable is tiers.json, decoded once. A file that does not decode is a build
// defect (go generate wrote it), so it panics on first use and in the staleness test.
var tierTable = sync.OnceValue(func() map[string]tierEntry {
	var t struct {
		Commands map[string]tierEntry `json:"commands"`
	}
	if err := json.Unmarshal(tiersJSON, &t); err != nil {
		panic(fmt.Sprintf("adapter: tiers.json: %v", err))
	}
	for name, e := range t.Commands {
		if e.Tier != TierInProcess && e.Tier != TierSubprocess {
			panic(fmt.Sprintf("adapter: tiers.json: command %s has tier %q", name, e.Tier))
		}
	}
	return t.Commands
})

// Tier returns the command's tier from the embedded tiers.json. A command the table
// does not list (one from another registry, such as a test's) is in-process: the table
// covers every command of commands.Default (a test fails when it is stale), and the
// adapter lane's costume already contains what it can for the rest.
func Tier(name string) string {
	if e, ok := tierTable()[name]; ok {
		return e.Tier
	}
	return TierInProcess
}

// Findings returns what bridgecheck charged to the command, one "<rule> <file>:
// <subject>" line each; nil for an in-process or unknown command.
func Findings(name string) []string {
	e, ok := tierTable()[name]
	if !ok || len(e.Findings) == 0 {
		return nil
	}
	return append([]string(nil), e.Findings...)
}

// tierOf is the tier lookup [Call] uses; tests replace it to route a test command.
var tierOf = Tier
