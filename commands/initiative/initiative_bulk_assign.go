package initiative

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:bulk-assign",
		New: newInitiativeBulkAssignApp, Main: convention.Main(newInitiativeBulkAssignApp)})
}

func newInitiativeBulkAssignApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:bulk-assign",
		Usage: "Assign unlinked WUs to initiatives by lane prefix (dry run unless --apply)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Usage: "rules file: rules: [{lane_prefix, initiative}]",
				Value: "tools/config/initiative-lane-buckets.yaml"},
			&cli.BoolFlag{Name: "apply", Usage: "write and commit the assignments (default: dry run)"},
		},
		Paths:   map[string]string{"config": "read"},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("apply"))},
		Action:  initiativeBulkAssign,
	})
}

// bucketRule is one lane-prefix rule of the bulk-assign config.
type bucketRule struct {
	LanePrefix string `yaml:"lane_prefix"`
	Initiative string `yaml:"initiative"`
}

func initiativeBulkAssign(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	rules, err := readBucketRules(c, ws, c.String("config"))
	if err != nil {
		return err
	}
	wus, err := readWUs(c, ws)
	if err != nil {
		return err
	}
	// Resolve every rule's initiative first: a rule naming no initiative changes nothing.
	targets := map[string]*delivery.Initiative{}
	for _, r := range rules {
		if _, ok := targets[r.Initiative]; ok {
			continue
		}
		in, err := resolve(ws, r.Initiative)
		if err != nil {
			return err
		}
		targets[r.Initiative] = in
	}
	data := bulkAssignData{Assignments: []bulkAssignment{}, Applied: c.Bool("apply")}
	byInit := map[string][]string{}
	var order []string
	var rows [][]string
	for _, w := range wus {
		if w.Initiative != "" {
			continue
		}
		for _, r := range rules {
			if strings.HasPrefix(w.Lane, r.LanePrefix) {
				in := targets[r.Initiative]
				data.Assignments = append(data.Assignments, bulkAssignment{WU: w.ID, Lane: w.Lane, Initiative: in.ID})
				rows = append(rows, []string{w.ID, w.Lane, in.ID})
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
			res, err := linkWUs(ws, targets[key], byInit[key], 0)
			if err != nil {
				return err
			}
			paths = append(paths, res.paths...)
		}
		subject := fmt.Sprintf("chore: bulk-assign %d WUs to initiatives", len(data.Assignments))
		if data.Commit, err = c.Commit(ws, subject, paths...); err != nil {
			return err
		}
	}
	text := convention.Table("assignments", []string{"wu", "lane", "initiative"}, rows) + convention.CommitLines(data.Commit)
	return c.Print(text, data)
}

// readBucketRules reads the rules file; a missing file means no rules, with a warning.
// TODO(delivery): move to delivery.ReadLaneBuckets
func readBucketRules(c *convention.Call, ws *delivery.Workspace, rel string) ([]bucketRule, error) {
	abs, _, err := delivery.Confine(ws.Root, ws.Root, rel, false)
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		c.Warn("%s not found: no rules", rel)
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

// bulkAssignData is initiative:bulk-assign's JSON data.
type bulkAssignData struct {
	Assignments []bulkAssignment   `json:"assignments"`
	Applied     bool               `json:"applied"`
	Commit      *convention.Commit `json:"commit"`
}

type bulkAssignment struct {
	WU         string `json:"wu"`
	Lane       string `json:"lane"`
	Initiative string `json:"initiative"`
}
