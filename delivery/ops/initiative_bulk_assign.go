package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// InitiativeBulkAssignInput is initiative:bulk-assign's input.
type InitiativeBulkAssignInput struct {
	// Config is the rules file, relative to the workspace root (confined to it).
	Config string
	// Apply writes and commits the assignments; without it the run is a dry run.
	Apply bool
}

// InitiativeBulkAssignData is initiative:bulk-assign's JSON data.
type InitiativeBulkAssignData struct {
	Assignments []BulkAssignment `json:"assignments"`
	Applied     bool             `json:"applied"`
	Commit      *Commit          `json:"commit"`
}

// BulkAssignment is one WU assigned to an initiative.
type BulkAssignment struct {
	WU         string `json:"wu"`
	Lane       string `json:"lane"`
	Initiative string `json:"initiative"`
}

// bucketRule is one lane-prefix rule of the bulk-assign rules file.
type bucketRule struct {
	LanePrefix string `yaml:"lane_prefix"`
	Initiative string `yaml:"initiative"`
}

// InitiativeBulkAssign is corpus §3.5 initiative:bulk-assign: every WU linked to no
// initiative whose lane starts with a rule's lane_prefix (the first rule that matches)
// is assigned to that rule's initiative; with Apply the WUs and initiatives are written
// and committed in one commit. Every rule's initiative is resolved first, so a rule
// naming none changes nothing. A missing rules file means no rules (a warning), and a
// WU spec that does not parse is left out (a warning).
func InitiativeBulkAssign(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in InitiativeBulkAssignInput) (InitiativeBulkAssignData, Notes, error) {
	var notes Notes
	rules, err := readBucketRules(ws, in.Config, &notes)
	if err != nil {
		return InitiativeBulkAssignData{}, notes, err
	}
	wus, err := readWUs(ws, &notes)
	if err != nil {
		return InitiativeBulkAssignData{}, notes, err
	}
	targets := map[string]*delivery.Initiative{}
	for _, r := range rules {
		if _, ok := targets[r.Initiative]; ok {
			continue
		}
		ini, err := delivery.ResolveInitiative(ws, r.Initiative)
		if err != nil {
			return InitiativeBulkAssignData{}, notes, err
		}
		targets[r.Initiative] = ini
	}
	data := InitiativeBulkAssignData{Assignments: []BulkAssignment{}, Applied: in.Apply}
	byInit := map[string][]string{}
	var order []string
	for _, w := range wus {
		if w.Initiative != "" {
			continue
		}
		for _, r := range rules {
			if strings.HasPrefix(w.Lane, r.LanePrefix) {
				data.Assignments = append(data.Assignments, BulkAssignment{WU: w.ID, Lane: w.Lane, Initiative: targets[r.Initiative].ID})
				if byInit[r.Initiative] == nil {
					order = append(order, r.Initiative)
				}
				byInit[r.Initiative] = append(byInit[r.Initiative], w.ID)
				break
			}
		}
	}
	if data.Applied && len(data.Assignments) > 0 {
		var paths []string
		for _, key := range order {
			res, err := LinkWUs(ws, targets[key], byInit[key], 0)
			if err != nil {
				return InitiativeBulkAssignData{}, notes, err
			}
			paths = append(paths, res.Paths...)
		}
		subject := fmt.Sprintf("chore: bulk-assign %d WUs to initiatives", len(data.Assignments))
		if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, subject, paths...); err != nil {
			return InitiativeBulkAssignData{}, notes, err
		}
	}
	return data, notes, nil
}

// readBucketRules reads the rules file rel; a missing file means no rules, with a warning.
func readBucketRules(ws *delivery.Workspace, rel string, notes *Notes) ([]bucketRule, error) {
	abs, _, err := delivery.Confine(ws.Root, ws.Root, rel, false)
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		notes.Warn("%s not found: no rules", rel)
		return nil, nil
	}
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "read %s: %w", rel, err)
	}
	var cfg struct {
		Rules []bucketRule `yaml:"rules"`
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		return nil, delivery.Errorf(tool.CodeValidation, "%s: invalid rules: %v", rel, err)
	}
	for i, r := range cfg.Rules {
		if r.LanePrefix == "" || r.Initiative == "" {
			return nil, delivery.Errorf(tool.CodeValidation, "%s: rule %d needs lane_prefix and initiative", rel, i+1)
		}
	}
	return cfg.Rules, nil
}
