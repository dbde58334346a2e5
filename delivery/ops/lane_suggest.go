package ops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// LaneSuggestKeys are the configuration sections lane:suggest reads.
var LaneSuggestKeys = []string{"software_delivery.lanes", "software_delivery.directories"}

// LaneSuggestInput is lane:suggest's input.
type LaneSuggestInput struct {
	// Dir is the call's directory, against which Output is resolved.
	Dir string
	// Output is the file the YAML snippet is written to, confined to the workspace; ""
	// writes nothing (the command is then read-only).
	Output string
}

// LaneSuggestion is one proposed lane definition.
type LaneSuggestion struct {
	Name           string   `json:"name"`
	CodePaths      []string `json:"code_paths"`
	WIPLimit       int      `json:"wip_limit"`
	LockPolicy     string   `json:"lock_policy"`
	UncoveredFiles int      `json:"uncovered_files"`
}

// LaneSuggestData is lane:suggest's JSON data. Output is the root-relative path written,
// null when nothing was written.
type LaneSuggestData struct {
	Suggestions []LaneSuggestion `json:"suggestions"`
	Output      *string          `json:"output"`
}

// LaneSuggest is corpus §3.2 lane:suggest: the top-level directories with tracked files (dot
// directories, worktrees, node_modules and vendor excluded; packages/ and apps/ expanded
// into their children) that hold a file no lane matches become lane suggestions, sorted by
// path. With Output (confined before the files are listed) and at least one suggestion,
// the snippet is written there. Notes.Text is the snippet, or "No lane suggestions".
func LaneSuggest(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in LaneSuggestInput) (LaneSuggestData, Notes, error) {
	var notes Notes
	var outAbs, outRel string
	if in.Output != "" {
		var err error
		if outAbs, outRel, err = delivery.Confine(ws.Root, in.Dir, in.Output, true); err != nil {
			return LaneSuggestData{}, notes, err
		}
	}
	files, err := delivery.RepoFiles(ctx, ws, rt)
	if err != nil {
		return LaneSuggestData{}, notes, err
	}
	data := LaneSuggestData{Suggestions: suggestLanes(ws, files)}
	if len(data.Suggestions) == 0 {
		notes.Text = "No lane suggestions\n"
		return data, notes, nil
	}
	snippet, err := suggestionYAML(data.Suggestions)
	if err != nil {
		return LaneSuggestData{}, notes, err
	}
	if outAbs != "" {
		if err := storage.JournalMkdir(filepath.Dir(outAbs)); err != nil {
			return LaneSuggestData{}, notes, err
		}
		if err := os.MkdirAll(filepath.Dir(outAbs), 0o755); err != nil {
			return LaneSuggestData{}, notes, delivery.Errorf(tool.CodeIOError, "create %s: %w", filepath.Dir(outRel), err)
		}
		if err := storage.WriteFileAtomic(outAbs, snippet, 0o644); err != nil {
			return LaneSuggestData{}, notes, delivery.Errorf(tool.CodeIOError, "write %s: %w", outRel, err)
		}
		data.Output = &outRel
	}
	notes.Text = string(snippet)
	return data, notes, nil
}

// suggestExcluded are top-level directories never suggested as lanes.
var suggestExcluded = map[string]bool{"worktrees": true, "node_modules": true, "vendor": true}

// suggestExpanded are top-level directories whose children are the candidates, with the
// lane-name prefix their children get.
var suggestExpanded = map[string]string{"packages": "Packages", "apps": "Apps"}

// suggestLanes applies lane:suggest's heuristic to the sorted file list.
func suggestLanes(ws *delivery.Workspace, files []string) []LaneSuggestion {
	worktrees := strings.TrimSuffix(ws.Config.WorktreesDir, "/")
	var out []LaneSuggestion
	index := map[string]int{}
	for _, f := range files {
		top, rest, nested := strings.Cut(f, "/")
		if !nested || strings.HasPrefix(top, ".") || suggestExcluded[top] || top == worktrees {
			continue
		}
		dir, prefix := top, "Project"
		if p, ok := suggestExpanded[top]; ok {
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
			out = append(out, LaneSuggestion{Name: prefix + ": " + suggestTitle(filepath.Base(dir)),
				CodePaths: []string{dir + "/**"}, WIPLimit: 1, LockPolicy: delivery.LockAll})
		}
		if !covered {
			out[i].UncoveredFiles++
		}
	}
	kept := []LaneSuggestion{}
	for _, s := range out {
		if s.UncoveredFiles > 0 {
			kept = append(kept, s)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].CodePaths[0] < kept[j].CodePaths[0] })
	return kept
}

// suggestTitle turns a directory name into words: "my-api_v2" → "My Api V2".
func suggestTitle(name string) string {
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
func suggestionYAML(ss []LaneSuggestion) ([]byte, error) {
	items := make([]*yaml.Node, 0, len(ss))
	for _, s := range ss {
		m := storage.NewMap()
		storage.MapSet(m, "name", storage.StrNode(s.Name))
		storage.MapSet(m, "wip_limit", storage.IntNode(int64(s.WIPLimit)))
		storage.MapSet(m, "lock_policy", storage.StrNode(s.LockPolicy))
		storage.MapSet(m, "code_paths", storage.StrSeq(s.CodePaths))
		items = append(items, m)
	}
	lanes := storage.NewMap()
	storage.MapSet(lanes, "definitions", storage.NewSeq(items...))
	sd := storage.NewMap()
	storage.MapSet(sd, "lanes", lanes)
	root := storage.NewMap()
	storage.MapSet(root, "software_delivery", sd)
	out, err := storage.EncodeYAML(root)
	if err != nil {
		return nil, fmt.Errorf("encode lane suggestions: %w", err)
	}
	return out, nil
}
