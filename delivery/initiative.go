package delivery

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Phase is one initiative phase.
type Phase struct {
	ID     int
	Title  string
	Status string
}

// Initiative is an initiative file (corpus §1.6): the document kept for round-trip edits
// and a typed view refreshed by [Initiative.Refresh].
type Initiative struct {
	Path string
	Doc  *yaml.Node

	ID, Slug, Title, Description, Status, Priority, Owner, Created, TargetDate string
	Phases                                                                     []Phase
	SuccessMetrics, Labels, WUs, Notes                                         []string
	RelatedPlan, BlockedBy, BlockedReason                                      string
}

// Set sets a top-level key (new keys are appended).
func (in *Initiative) Set(key string, v *yaml.Node) { storage.MapSet(storage.Root(in.Doc), key, v) }

// Delete removes a top-level key.
func (in *Initiative) Delete(key string) bool { return storage.MapDelete(storage.Root(in.Doc), key) }

// Refresh rebuilds the typed view from the document.
func (in *Initiative) Refresh() {
	root := storage.Root(in.Doc)
	r := fieldReader{m: root}
	*in = Initiative{Path: in.Path, Doc: in.Doc}
	in.ID, in.Slug, in.Title, in.Description = r.str("id"), r.str("slug"), r.str("title"), r.str("description")
	in.Status, in.Priority, in.Owner = r.str("status"), r.str("priority"), r.str("owner")
	in.Created, in.TargetDate = r.str("created"), r.str("target_date")
	in.SuccessMetrics, in.Labels, in.WUs, in.Notes = r.list("success_metrics"), r.list("labels"), r.list("wus"), r.list("notes")
	in.RelatedPlan, in.BlockedBy, in.BlockedReason = r.str("related_plan"), r.str("blocked_by"), r.str("blocked_reason")
	if ph := storage.MapGet(root, "phases"); ph != nil && ph.Kind == yaml.SequenceNode {
		for _, p := range ph.Content {
			pr := fieldReader{m: storage.Deref(p)}
			in.Phases = append(in.Phases, Phase{ID: pr.integer("id"), Title: pr.str("title"), Status: pr.str("status")})
		}
	}
	if in.Status == "" {
		in.Status = "draft"
	}
}

// ParseInitiative parses an initiative file; bad YAML is VALIDATION.
func ParseInitiative(rel string, data []byte) (*Initiative, error) {
	doc, err := storage.DecodeYAML(data)
	if err != nil {
		return nil, Errorf(tool.CodeValidation, "%s: invalid YAML: %w", rel, err)
	}
	if storage.Root(doc).Kind != yaml.MappingNode {
		return nil, Errorf(tool.CodeValidation, "%s: not a mapping", rel)
	}
	in := &Initiative{Path: rel, Doc: doc}
	in.Refresh()
	return in, nil
}

// WriteInitiative writes the document under root.
func WriteInitiative(root string, in *Initiative) error {
	data, err := storage.EncodeYAML(in.Doc)
	if err != nil {
		return Errorf(tool.CodeInternal, "%s: %w", in.Path, err)
	}
	if err := storage.WriteFileAtomic(root+"/"+in.Path, data, 0o644); err != nil {
		return Errorf(tool.CodeIOError, "write %s: %w", in.Path, err)
	}
	return nil
}

var initFileRe = regexp.MustCompile(`^(INIT-[0-9A-Z][0-9A-Z-]*)\.yaml$`)

// ListInitiatives reads every INIT-*.yaml, sorted by the numeric part of the id, then id.
func ListInitiatives(ws *Workspace) ([]*Initiative, error) {
	if ws.Source != nil {
		return ws.Source.Initiatives()
	}
	dir := ws.Abs(cleanDir(ws.Config.InitiativesDir))
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, Errorf(tool.CodeIOError, "read %s: %w", ws.Config.InitiativesDir, err)
	}
	var out []*Initiative
	for _, e := range entries {
		m := initFileRe.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		rel := ws.InitiativePath(m[1])
		data, err := os.ReadFile(ws.Abs(rel))
		if err != nil {
			return nil, Errorf(tool.CodeIOError, "read %s: %w", rel, err)
		}
		in, err := ParseInitiative(rel, data)
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	sortInitiatives(out)
	return out, nil
}

func sortInitiatives(out []*Initiative) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := initNumber(out[i].ID), initNumber(out[j].ID)
		if a != b {
			return a < b
		}
		return out[i].ID < out[j].ID
	})
}

var initDigitsRe = regexp.MustCompile(`^INIT-(\d+)$`)

func initNumber(id string) int {
	m := initDigitsRe.FindStringSubmatch(id)
	if m == nil {
		return 1 << 30 // non-numeric ids sort after numeric ones
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// NextInitiativeID is INIT-<max+1> over files named INIT-<digits>.yaml (leading zeros
// allowed; the result is not padded).
func NextInitiativeID(ws *Workspace) (string, error) {
	entries, err := os.ReadDir(ws.Abs(cleanDir(ws.Config.InitiativesDir)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", Errorf(tool.CodeIOError, "read %s: %w", ws.Config.InitiativesDir, err)
	}
	max := 0
	re := regexp.MustCompile(`^INIT-(\d+)\.yaml$`)
	for _, e := range entries {
		if m := re.FindStringSubmatch(e.Name()); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > max {
				max = n
			}
		}
	}
	return fmt.Sprintf("INIT-%d", max+1), nil
}

// ResolveInitiative finds an initiative by id first, then by slug (NOT_FOUND otherwise).
func ResolveInitiative(ws *Workspace, ref string) (*Initiative, error) {
	if r, ok := ws.Source.(InitiativeResolver); ok {
		return r.ResolveInitiative(ref)
	}
	all, err := ListInitiatives(ws)
	if err != nil {
		return nil, err
	}
	return FindInitiative(all, ref)
}

// InitiativeResolver is a Source that resolves one initiative without handing out the
// others (a writer's source copies what it hands out, and copying every initiative to
// find one costs more than the call). Its answer is ResolveInitiative's.
type InitiativeResolver interface {
	ResolveInitiative(ref string) (*Initiative, error)
}

// FindInitiative is ResolveInitiative's choice among all: the initiative whose id is
// ref, else the one whose slug is; NOT_FOUND otherwise.
func FindInitiative(all []*Initiative, ref string) (*Initiative, error) {
	for _, in := range all {
		if in.ID == ref {
			return in, nil
		}
	}
	for _, in := range all {
		if in.Slug == ref {
			return in, nil
		}
	}
	return nil, Errorf(tool.CodeNotFound, "initiative %s not found", ref)
}

// InitiativeWUs returns the WUs of an initiative: its wus list plus every WU whose
// initiative field is its id or slug, in ascending numeric id order. Ids of the wus list
// without a file are returned in missing, in list order. For several initiatives over the
// same WUs, build one [MembershipIndex] instead (this builds one per call).
func InitiativeWUs(in *Initiative, all []*WU) (wus []*WU, missing []string) {
	return NewMembershipIndex(all).Members(in)
}

// MembershipIndex answers "which WUs belong to this initiative" for many initiatives
// after one pass over the WUs, so listing every initiative stays linear in WUs +
// initiatives' lists.
type MembershipIndex struct {
	byID map[string]*WU
	// byRef groups the WUs by their initiative field (an id or a slug), in input order.
	byRef map[string][]*WU
}

// NewMembershipIndex indexes all by id and by initiative field.
func NewMembershipIndex(all []*WU) *MembershipIndex {
	x := &MembershipIndex{byID: make(map[string]*WU, len(all)), byRef: map[string][]*WU{}}
	for _, w := range all {
		x.byID[w.ID] = w
		if w.Initiative != "" {
			x.byRef[w.Initiative] = append(x.byRef[w.Initiative], w)
		}
	}
	return x
}

// Members is InitiativeWUs over the indexed WUs.
func (x *MembershipIndex) Members(in *Initiative) (wus []*WU, missing []string) {
	seen := map[string]bool{}
	for _, id := range in.WUs {
		if seen[id] {
			continue
		}
		seen[id] = true
		if w, ok := x.byID[id]; ok {
			wus = append(wus, w)
		} else {
			missing = append(missing, id)
		}
	}
	for _, ref := range []string{in.ID, in.Slug} {
		for _, w := range x.byRef[ref] {
			if ref != "" && !seen[w.ID] {
				seen[w.ID] = true
				wus = append(wus, w)
			}
		}
	}
	sort.SliceStable(wus, func(i, j int) bool { return wus[i].Number() < wus[j].Number() })
	return wus, missing
}

// DerivedStatus is done when the initiative has WUs and all are done, in_progress when any
// is in_progress or blocked, otherwise the YAML status.
func DerivedStatus(in *Initiative, wus []*WU) string {
	if len(wus) > 0 {
		allDone, active := true, false
		for _, w := range wus {
			s := w.NormStatus()
			allDone = allDone && s == StatusDone
			active = active || s == StatusInProgress || s == StatusBlocked
		}
		if allDone {
			return "done"
		}
		if active {
			return "in_progress"
		}
	}
	return in.Status
}
