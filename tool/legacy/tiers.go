package legacy

import (
	"encoding/json"
	"fmt"
)

// Tiers maps a command name to bridgecheck's verdict on it: the "commands" object of the
// tier table `bridgecheck -tiers FILE` writes in the adopter's repository.
type Tiers map[string]Verdict

// Verdict is one command's tier and what bridgecheck charged to it.
type Verdict struct {
	Tier     string   `json:"tier"`
	Findings []string `json:"findings"`
}

// Table is a whole tier table as `bridgecheck -tiers` writes it.
type Table struct {
	// Commands are the verdicts on commands registered by name.
	Commands Tiers `json:"commands"`
	// Packages are the verdicts on whole packages, by import path: in-process when
	// bridgecheck found nothing anywhere in the package. They judge the leaves of a
	// command tree ([FromApp]) whose action lives in the package and which no command
	// verdict names.
	Packages Tiers `json:"packages"`
}

// ParseTiers decodes a tier table (bridgecheck -tiers output). An unknown tier is an
// error naming the command or package.
func ParseTiers(data []byte) (Table, error) {
	var t Table
	if err := json.Unmarshal(data, &t); err != nil {
		return Table{}, fmt.Errorf("tier table: %w", err)
	}
	for _, part := range []Tiers{t.Commands, t.Packages} {
		for name, v := range part {
			if err := checkTier(name, v.Tier); err != nil {
				return Table{}, fmt.Errorf("tier table: %w", err)
			}
		}
	}
	return t, nil
}
