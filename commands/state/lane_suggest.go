package state

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
	commands.Register(legacy.Command{Name: "lane:suggest", Domain: "state",
		New: newLaneSuggestApp, Main: convention.Main(newLaneSuggestApp)})
}

func newLaneSuggestApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "lane:suggest",
		Usage: "Propose lane definitions for directories no lane covers (deterministic, offline)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Usage: "write the YAML snippet to this file (otherwise nothing is written)"},
		},
		Idempotent:  true,
		Paths:       map[string]string{"output": "write"},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("output"))},
		Action:      laneSuggest,
	})
}

func laneSuggest(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.lanes", "software_delivery.directories"); err != nil {
		return err
	}
	var outAbs, outRel string
	if p := c.String("output"); p != "" {
		cwd, err := c.Dir()
		if err != nil {
			return err
		}
		if outAbs, outRel, err = delivery.Confine(ws.Root, cwd, p, true); err != nil {
			return err
		}
	}
	files, err := delivery.RepoFiles(c.Context(), ws, c.Runtime())
	if err != nil {
		return err
	}
	data := laneSuggestData{Suggestions: suggestLanes(ws, files)}
	if len(data.Suggestions) == 0 {
		return c.Print("No lane suggestions\n", data)
	}
	snippet, err := suggestionYAML(data.Suggestions)
	if err != nil {
		return err
	}
	if outAbs != "" {
		delivery.JournalMkdir(filepath.Dir(outAbs))
		if err := os.MkdirAll(filepath.Dir(outAbs), 0o755); err != nil {
			return delivery.Errorf(tool.CodeIOError, "create %s: %w", filepath.Dir(outRel), err)
		}
		if err := delivery.WriteFileAtomic(outAbs, snippet, 0o644); err != nil {
			return delivery.Errorf(tool.CodeIOError, "write %s: %w", outRel, err)
		}
		data.Output = &outRel
		c.Progress("wrote %s", outRel)
	}
	return c.Print(string(snippet), data)
}

// excludedDirs are top-level directories never suggested as lanes.
var excludedDirs = map[string]bool{"worktrees": true, "node_modules": true, "vendor": true}

// expandedDirs are top-level directories whose children are the candidates, with the
// lane-name prefix their children get.
var expandedDirs = map[string]string{"packages": "Packages", "apps": "Apps"}

// suggestLanes applies lane:suggest's heuristic to the sorted file list.
func suggestLanes(ws *delivery.Workspace, files []string) []laneSuggestion {
	worktrees := strings.TrimSuffix(ws.Config.WorktreesDir, "/")
	var out []laneSuggestion
	index := map[string]int{}
	for _, f := range files {
		top, rest, nested := strings.Cut(f, "/")
		if !nested || strings.HasPrefix(top, ".") || excludedDirs[top] || top == worktrees {
			continue
		}
		dir, prefix := top, "Project"
		if p, ok := expandedDirs[top]; ok {
			child, _, deeper := strings.Cut(rest, "/")
			if !deeper {
				continue // a file directly under packages/ belongs to no child
			}
			dir, prefix = top+"/"+child, p
		}
		covered := false
		for _, l := range ws.Config.Lanes {
			if delivery.MatchGlobs(l.CodePaths, f) {
				covered = true
				break
			}
		}
		i, seen := index[dir]
		if !seen {
			i = len(out)
			index[dir] = i
			out = append(out, laneSuggestion{Name: prefix + ": " + titleCase(filepath.Base(dir)),
				CodePaths: []string{dir + "/**"}, WIPLimit: 1, LockPolicy: delivery.LockAll})
		}
		if !covered {
			out[i].UncoveredFiles++
		}
	}
	kept := out[:0]
	for _, s := range out {
		if s.UncoveredFiles > 0 {
			kept = append(kept, s)
		}
	}
	out = append([]laneSuggestion{}, kept...)
	sort.Slice(out, func(i, j int) bool { return out[i].CodePaths[0] < out[j].CodePaths[0] })
	return out
}

// titleCase turns a directory name into words: "my-api_v2" → "My Api V2".
func titleCase(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	if len(words) == 0 {
		return name
	}
	return strings.Join(words, " ")
}

// suggestionYAML renders the suggestions as a workspace.yaml snippet with the shared
// encoder.
func suggestionYAML(ss []laneSuggestion) ([]byte, error) {
	items := make([]*yaml.Node, 0, len(ss))
	for _, s := range ss {
		m := delivery.NewMap()
		delivery.MapSet(m, "name", delivery.StrNode(s.Name))
		delivery.MapSet(m, "wip_limit", delivery.IntNode(int64(s.WIPLimit)))
		delivery.MapSet(m, "lock_policy", delivery.StrNode(s.LockPolicy))
		delivery.MapSet(m, "code_paths", delivery.StrSeq(s.CodePaths))
		items = append(items, m)
	}
	defs := delivery.NewSeq(items...)
	lanes := delivery.NewMap()
	delivery.MapSet(lanes, "definitions", defs)
	sd := delivery.NewMap()
	delivery.MapSet(sd, "lanes", lanes)
	root := delivery.NewMap()
	delivery.MapSet(root, "software_delivery", sd)
	out, err := delivery.EncodeYAML(root)
	if err != nil {
		return nil, fmt.Errorf("encode lane suggestions: %w", err)
	}
	return out, nil
}

// laneSuggestion is one proposed lane definition.
type laneSuggestion struct {
	Name           string   `json:"name"`
	CodePaths      []string `json:"code_paths"`
	WIPLimit       int      `json:"wip_limit"`
	LockPolicy     string   `json:"lock_policy"`
	UncoveredFiles int      `json:"uncovered_files"`
}

// laneSuggestData is lane:suggest's JSON data.
type laneSuggestData struct {
	Suggestions []laneSuggestion `json:"suggestions"`
	Output      *string          `json:"output"`
}
