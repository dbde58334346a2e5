package delivery

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Incident categories and severities (corpus §3.6).
var (
	IncidentCategories = []string{"workflow", "tooling", "confusion", "violation", "error"}
	IncidentSeverities = []string{"blocker", "major", "minor", "info"}
)

// Incident is one .lumenflow/incidents/<category>.ndjson record (corpus §1.13), keys in
// file order.
type Incident struct {
	Timestamp   string          `json:"timestamp"`
	SessionID   string          `json:"session_id"`
	WUID        string          `json:"wu_id"`
	Lane        string          `json:"lane"`
	Category    string          `json:"category"`
	Severity    string          `json:"severity"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Resolution  string          `json:"resolution,omitempty"`
	Tags        []string        `json:"tags"`
	Context     IncidentContext `json:"context"`
}

// IncidentContext is an incident's context object; every field is optional.
type IncidentContext struct {
	GitBranch    string   `json:"git_branch,omitempty"`
	CurrentStep  string   `json:"current_step,omitempty"`
	RelatedFiles []string `json:"related_files,omitempty"`
}

// Major reports whether the incident counts as major (major or blocker).
func (i Incident) Major() bool { return i.Severity == "major" || i.Severity == "blocker" }

// IncidentRel is the root-relative file holding a category's incidents.
func IncidentRel(category string) string { return path.Join(IncidentsDir, category+".ndjson") }

// ValidateIncident returns every violation of the agent:log-issue length limits: title
// 5–100 characters, description 10–2000 characters (counted in runes).
func ValidateIncident(i Incident) []string {
	var out []string
	if n := utf8.RuneCountInString(i.Title); n < 5 || n > 100 {
		out = append(out, fmt.Sprintf("title must be 5 to 100 characters (got %d)", n))
	}
	if n := utf8.RuneCountInString(i.Description); n < 10 || n > 2000 {
		out = append(out, fmt.Sprintf("description must be 10 to 2000 characters (got %d)", n))
	}
	return out
}

// AppendIncident validates the incident and appends it to its category file.
func AppendIncident(root string, i Incident) error {
	if errs := ValidateIncident(i); len(errs) > 0 {
		return Errorf(tool.CodeValidation, "%s", strings.Join(errs, "; ")).WithDetails(map[string]any{"errors": errs})
	}
	if i.Tags == nil {
		i.Tags = []string{}
	}
	p := filepath.Join(root, filepath.FromSlash(IncidentRel(i.Category)))
	if err := storage.JournalAppend(p); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return Errorf(tool.CodeIOError, "create %s: %w", IncidentsDir, err)
	}
	if err := storage.AppendJSONL(p, i); err != nil {
		return Errorf(tool.CodeIOError, "append %s: %w", IncidentRel(i.Category), err)
	}
	return nil
}

// ReadIncidents reads every *.ndjson file of the incidents directory in file-name order.
// Lines that do not decode are skipped and returned as warnings ("<file> line <k>: …").
func ReadIncidents(root string) ([]Incident, []string, error) {
	dir := filepath.Join(root, filepath.FromSlash(IncidentsDir))
	names, err := filepath.Glob(filepath.Join(dir, "*.ndjson"))
	if err != nil {
		return nil, nil, Errorf(tool.CodeIOError, "list %s: %w", IncidentsDir, err)
	}
	sort.Strings(names)
	var out []Incident
	var warnings []string
	for _, n := range names {
		recs, bad, err := storage.ReadRecords[Incident](n, func(i *Incident) error {
			if _, err := ParseTimestamp(i.Timestamp); err != nil {
				return fmt.Errorf("invalid timestamp %q", i.Timestamp)
			}
			return nil
		})
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, nil, Errorf(tool.CodeIOError, "read %s: %w", filepath.Base(n), err)
		}
		for _, b := range bad {
			warnings = append(warnings, b.Warning(filepath.Base(n)))
		}
		out = append(out, recs...)
	}
	return out, warnings, nil
}

// Count is one name with its number of occurrences.
type Count struct {
	Name string
	N    int
}

// IncidentQuery filters incidents for agent:issues-query.
type IncidentQuery struct {
	Since    time.Time // keep timestamp ≥ Since
	Category string    // "" for any
	Severity string    // "" for any
}

// IncidentSummary is the result of [QueryIncidents].
type IncidentSummary struct {
	Total      int
	ByCategory []Count // descending count, then name
	BySeverity []Count // descending count, then name
	// Recent are up to 10 matching incidents, newest first (ties keep file order).
	Recent []Incident
}

// QueryIncidents keeps the incidents matching q and summarises them.
func QueryIncidents(all []Incident, q IncidentQuery) IncidentSummary {
	type item struct {
		inc Incident
		at  time.Time
	}
	var kept []item
	cat, sev := map[string]int{}, map[string]int{}
	for _, i := range all {
		at, err := ParseTimestamp(i.Timestamp)
		if err != nil || at.Before(q.Since) {
			continue
		}
		if (q.Category != "" && i.Category != q.Category) || (q.Severity != "" && i.Severity != q.Severity) {
			continue
		}
		kept = append(kept, item{i, at})
		cat[i.Category]++
		sev[i.Severity]++
	}
	sort.SliceStable(kept, func(a, b int) bool { return kept[a].at.After(kept[b].at) })
	s := IncidentSummary{Total: len(kept), ByCategory: sortCounts(cat), BySeverity: sortCounts(sev), Recent: []Incident{}}
	for k := 0; k < len(kept) && k < 10; k++ {
		s.Recent = append(s.Recent, kept[k].inc)
	}
	return s
}

func sortCounts(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for k, v := range m {
		out = append(out, Count{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Name < out[j].Name
	})
	return out
}
