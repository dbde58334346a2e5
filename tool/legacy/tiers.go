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

// ParseTiers decodes a tier table (bridgecheck -tiers output). An unknown tier is an
// error naming the command.
func ParseTiers(data []byte) (Tiers, error) {
	var t struct {
		Commands Tiers `json:"commands"`
	}
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("tier table: %w", err)
	}
	for name, v := range t.Commands {
		if err := checkTier(name, v.Tier); err != nil {
			return nil, fmt.Errorf("tier table: %w", err)
		}
	}
	return t.Commands, nil
}
