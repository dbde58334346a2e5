package delivery

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Normalised statuses (corpus §1.5) and the event-only state waiting.
const (
	StatusReady      = "ready"
	StatusInProgress = "in_progress"
	StatusBlocked    = "blocked"
	StatusDone       = "done"
	StatusClosed     = "closed"
	StatusWaiting    = "waiting"
)

// NormalizeStatus maps a YAML status to ready, in_progress, blocked, done or closed. A
// missing status is ready; an unknown value is returned unchanged (structural validation
// reports it).
func NormalizeStatus(raw string) string {
	switch raw {
	case "", "ready", "todo", "backlog":
		return StatusReady
	case "in_progress":
		return StatusInProgress
	case "blocked":
		return StatusBlocked
	case "done", "completed":
		return StatusDone
	case "cancelled", "abandoned", "deferred", "closed", "superseded":
		return StatusClosed
	}
	return raw
}

var transitions = map[string][]string{
	StatusReady:      {StatusInProgress},
	StatusInProgress: {StatusBlocked, StatusWaiting, StatusDone, StatusReady},
	StatusBlocked:    {StatusInProgress, StatusDone},
	StatusWaiting:    {StatusInProgress, StatusDone},
}

// CanTransition reports whether the status model allows from → to (both normalised).
func CanTransition(from, to string) bool { return oneOf(to, transitions[from]) }

// CheckTransition returns INVALID_TRANSITION when from → to is not allowed.
func CheckTransition(id, from, to string) error {
	if CanTransition(from, to) {
		return nil
	}
	return Errorf(tool.CodeInvalidTransition, "%s: cannot move from %s to %s", id, from, to)
}

// WUNumber returns n of WU-<n> (0 when id is not a WU id).
func WUNumber(id string) int {
	if !ValidWUID(id) {
		return 0
	}
	n, _ := strconv.Atoi(id[3:])
	return n
}

// AcceptanceGroup is one key of a map-form acceptance.
type AcceptanceGroup struct {
	Key   string
	Items []string
}

// Tests is the tests map of a WU.
type Tests struct {
	Manual, Unit, Integration, E2E []string
}

// WU is a WU spec: the YAML document (kept for round-trip edits) and a typed view of the
// known fields, refreshed by [WU.Refresh] after edits.
type WU struct {
	// Path is the root-relative file path.
	Path string
	// Doc is the YAML document; edit it with Set/Delete (or the node helpers) and Refresh.
	Doc *yaml.Node

	ID, Title, Lane, Type, Status, Priority, Created, Description string
	// Acceptance is the list form, or every item of the map form in key order.
	Acceptance []string
	// AcceptanceGroups is set when acceptance uses the map form.
	AcceptanceGroups []AcceptanceGroup
	CodePaths        []string
	Tests            Tests
	Artifacts        []string
	Dependencies     []string
	Risks            []string
	Notes            string
	RequiresReview   bool
	Initiative       string
	Phase            int
	BlockedBy        []string
	Blocks           []string
	Labels           []string
	AssignedTo       string
	Exposure         string
	SpecRefs         []string
	Plan             string
	ClaimedMode      string
	ClaimedBranch    string
	WorktreePath     string
	ClaimedAt        string
	SessionID        string
	BlockedReason    string
	Locked           bool
	CompletedAt      string
	Completed        string

	// typeErrors are the structural problems found while reading the typed view.
	typeErrors []string
}

// NormStatus is the normalised status.
func (w *WU) NormStatus() string { return NormalizeStatus(w.Status) }

// Number is n of the WU's id.
func (w *WU) Number() int { return WUNumber(w.ID) }

// Set sets a top-level key (existing keys keep their place, new ones are appended).
func (w *WU) Set(key string, value *yaml.Node) { storage.MapSet(storage.Root(w.Doc), key, value) }

// Delete removes a top-level key.
func (w *WU) Delete(key string) bool { return storage.MapDelete(storage.Root(w.Doc), key) }

// Get returns a top-level value node or nil.
func (w *WU) Get(key string) *yaml.Node { return storage.MapGet(storage.Root(w.Doc), key) }

// Bytes encodes the document with the shared encoder.
func (w *WU) Bytes() ([]byte, error) { return storage.EncodeYAML(w.Doc) }

// ParseWU parses a WU spec file's bytes. YAML that does not parse, or a document that is
// not a mapping, is a VALIDATION error; type problems are kept for [ValidateStructure].
func ParseWU(rel string, data []byte) (*WU, error) {
	doc, err := storage.DecodeYAML(data)
	if err != nil {
		return nil, Errorf(tool.CodeValidation, "%s: invalid YAML: %w", rel, err)
	}
	if storage.Root(doc).Kind != yaml.MappingNode {
		return nil, Errorf(tool.CodeValidation, "%s: not a mapping", rel)
	}
	w := &WU{Path: rel, Doc: doc}
	w.Refresh()
	return w, nil
}

// Refresh rebuilds the typed view from the document.
func (w *WU) Refresh() {
	root := storage.Root(w.Doc)
	r := fieldReader{m: root}
	*w = WU{Path: w.Path, Doc: w.Doc}
	w.ID = r.str("id")
	w.Title = r.str("title")
	w.Lane = r.str("lane")
	// An absent type or priority reads as its corpus §1.5 default, for every reader.
	w.Type = r.str("type")
	if w.Type == "" && storage.MapGet(root, "type") == nil {
		w.Type = "feature"
	}
	w.Status = r.str("status")
	w.Priority = r.str("priority")
	if w.Priority == "" && storage.MapGet(root, "priority") == nil {
		w.Priority = "P2"
	}
	w.Created = r.str("created")
	w.Description = r.str("description")
	if acc := storage.MapGet(root, "acceptance"); acc != nil && acc.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(acc.Content); i += 2 {
			items, err := storage.StringList(acc.Content[i+1])
			if err != nil {
				r.errs = append(r.errs, fmt.Sprintf("acceptance.%s: %v", acc.Content[i].Value, err))
			}
			w.AcceptanceGroups = append(w.AcceptanceGroups, AcceptanceGroup{Key: acc.Content[i].Value, Items: items})
			w.Acceptance = append(w.Acceptance, items...)
		}
	} else {
		w.Acceptance = r.list("acceptance")
	}
	w.CodePaths = r.list("code_paths")
	if t := storage.MapGet(root, "tests"); t != nil && !storage.IsNull(t) {
		if t.Kind != yaml.MappingNode {
			r.errs = append(r.errs, "tests must be a mapping")
		} else {
			tr := fieldReader{m: t, prefix: "tests."}
			w.Tests = Tests{Manual: tr.list("manual"), Unit: tr.list("unit"), Integration: tr.list("integration"), E2E: tr.list("e2e")}
			r.errs = append(r.errs, tr.errs...)
		}
	}
	w.Artifacts = r.list("artifacts")
	w.Dependencies = r.list("dependencies")
	w.Risks = r.list("risks")
	if n := storage.MapGet(root, "notes"); n != nil && n.Kind == yaml.SequenceNode {
		notes, err := storage.StringList(n)
		if err != nil {
			r.errs = append(r.errs, "notes: "+err.Error())
		}
		w.Notes = strings.Join(notes, "\n")
	} else {
		w.Notes = r.str("notes")
	}
	w.RequiresReview = r.boolean("requires_review")
	w.Initiative = r.str("initiative")
	w.Phase = r.integer("phase")
	w.BlockedBy = r.list("blocked_by")
	w.Blocks = r.list("blocks")
	w.Labels = r.list("labels")
	w.AssignedTo = r.str("assigned_to")
	w.Exposure = r.str("exposure")
	w.SpecRefs = r.list("spec_refs")
	w.Plan = r.str("plan")
	w.ClaimedMode = r.str("claimed_mode")
	w.ClaimedBranch = r.str("claimed_branch")
	w.WorktreePath = r.str("worktree_path")
	w.ClaimedAt = r.str("claimed_at")
	w.SessionID = r.str("session_id")
	w.BlockedReason = r.str("blocked_reason")
	w.Locked = r.boolean("locked")
	w.CompletedAt = r.str("completed_at")
	w.Completed = r.str("completed")
	w.typeErrors = r.errs
}

// fieldReader reads typed values from a mapping, collecting type errors.
type fieldReader struct {
	m      *yaml.Node
	prefix string
	errs   []string
}

func (r *fieldReader) str(k string) string {
	n := storage.MapGet(r.m, k)
	if n == nil || storage.IsNull(n) {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		r.errs = append(r.errs, fmt.Sprintf("%s%s must be a string, found %s", r.prefix, k, storage.KindName(n)))
		return ""
	}
	return n.Value
}

func (r *fieldReader) list(k string) []string {
	l, err := storage.StringList(storage.MapGet(r.m, k))
	if err != nil {
		r.errs = append(r.errs, fmt.Sprintf("%s%s: %v", r.prefix, k, err))
	}
	return l
}

func (r *fieldReader) boolean(k string) bool {
	n := storage.MapGet(r.m, k)
	if n == nil || storage.IsNull(n) {
		return false
	}
	var b bool
	if n.Kind != yaml.ScalarNode || n.ShortTag() != storage.TagBool || n.Decode(&b) != nil {
		r.errs = append(r.errs, fmt.Sprintf("%s%s must be a boolean, found %s", r.prefix, k, storage.KindName(n)))
	}
	return b
}

func (r *fieldReader) integer(k string) int {
	n := storage.MapGet(r.m, k)
	if n == nil || storage.IsNull(n) {
		return 0
	}
	i, ok := intValue(n)
	if !ok {
		r.errs = append(r.errs, fmt.Sprintf("%s%s must be an integer, found %s", r.prefix, k, storage.KindName(n)))
	}
	return int(i)
}

var dateRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// ValidateStructure returns the structural violations of corpus §1.5 (empty when valid).
func ValidateStructure(w *WU) []string {
	errs := append([]string(nil), w.typeErrors...)
	root := storage.Root(w.Doc)
	req := func(k string) bool {
		if !storage.MapHas(root, k) {
			errs = append(errs, k+" is required")
			return false
		}
		return true
	}
	if req("id") && !ValidWUID(w.ID) {
		errs = append(errs, fmt.Sprintf("id %q must match WU-<number>", w.ID))
	}
	if req("title") && strings.TrimSpace(w.Title) == "" {
		errs = append(errs, "title must not be empty")
	}
	if req("lane") && strings.TrimSpace(w.Lane) == "" {
		errs = append(errs, "lane must not be empty")
	}
	if w.Type != "" && !oneOf(w.Type, WUTypes) {
		errs = append(errs, fmt.Sprintf("type %q must be one of %s", w.Type, strings.Join(WUTypes, ", ")))
	}
	if !oneOf(NormalizeStatus(w.Status), []string{StatusReady, StatusInProgress, StatusBlocked, StatusDone, StatusClosed}) {
		errs = append(errs, fmt.Sprintf("status %q is not a known status", w.Status))
	}
	if w.Priority != "" && !oneOf(w.Priority, Priorities) {
		errs = append(errs, fmt.Sprintf("priority %q must be one of P0, P1, P2, P3", w.Priority))
	}
	if req("created") && !dateRe.MatchString(w.Created) {
		errs = append(errs, fmt.Sprintf("created %q must be a YYYY-MM-DD date", w.Created))
	}
	req("description")
	req("acceptance")
	if w.Exposure != "" && !oneOf(w.Exposure, Exposures) {
		errs = append(errs, fmt.Sprintf("exposure %q must be one of %s", w.Exposure, strings.Join(Exposures, ", ")))
	}
	if w.ClaimedMode != "" && !oneOf(w.ClaimedMode, ClaimedModes) {
		errs = append(errs, fmt.Sprintf("claimed_mode %q must be one of %s", w.ClaimedMode, strings.Join(ClaimedModes, ", ")))
	}
	if storage.MapHas(root, "phase") && w.Phase < 1 {
		errs = append(errs, "phase must be an integer ≥ 1")
	}
	for _, k := range []struct {
		name string
		ids  []string
	}{{"blocked_by", w.BlockedBy}, {"blocks", w.Blocks}} {
		for _, id := range k.ids {
			if !ValidWUID(id) {
				errs = append(errs, fmt.Sprintf("%s entry %q must be a WU id", k.name, id))
			}
		}
	}
	return errs
}

// ValidateStrict returns the structural violations plus the strict rules of corpus §1.5
// (type prototype is exempt from every strict rule).
func ValidateStrict(w *WU, minDescriptionLength int) []string {
	errs := ValidateStructure(w)
	if w.Type == "prototype" {
		return errs
	}
	if n := len([]rune(strings.TrimSpace(w.Description))); n < minDescriptionLength {
		errs = append(errs, fmt.Sprintf("description must be at least %d characters (has %d)", minDescriptionLength, n))
	}
	if len(w.Acceptance) == 0 {
		errs = append(errs, "acceptance must have at least one item")
	}
	if strings.Contains(w.Description, "[PLACEHOLDER]") {
		errs = append(errs, "description contains [PLACEHOLDER]")
	}
	for _, a := range w.Acceptance {
		if strings.Contains(a, "[PLACEHOLDER]") {
			errs = append(errs, "acceptance contains [PLACEHOLDER]")
			break
		}
	}
	if w.Exposure == "" {
		errs = append(errs, "exposure is required")
	}
	if len(w.CodePaths) == 0 && w.Type != "documentation" && w.Type != "process" {
		errs = append(errs, "code_paths must not be empty")
	}
	return errs
}

// NewWUInput holds the values of a new WU file.
type NewWUInput struct {
	ID, Title, Lane, Type, Priority, Created, Description string
	Acceptance, CodePaths, TestsManual, TestsUnit         []string
}

// NewWU builds a new WU document in the spec's new-file key order: id, title, lane, type,
// status: ready, priority, created, description, acceptance, code_paths,
// tests{manual,unit,e2e}, artifacts [stamp], dependencies, risks, requires_review: false.
// Optional keys (initiative, phase, blocked_by, exposure…) are appended with Set.
func NewWU(wuDir string, in NewWUInput) *WU {
	m := storage.NewMap()
	storage.MapSet(m, "id", storage.StrNode(in.ID))
	storage.MapSet(m, "title", storage.StrNode(in.Title))
	storage.MapSet(m, "lane", storage.StrNode(in.Lane))
	storage.MapSet(m, "type", storage.StrNode(in.Type))
	storage.MapSet(m, "status", storage.StrNode(StatusReady))
	storage.MapSet(m, "priority", storage.StrNode(in.Priority))
	storage.MapSet(m, "created", storage.DateNode(in.Created))
	storage.MapSet(m, "description", storage.StrNode(in.Description))
	storage.MapSet(m, "acceptance", storage.StrSeq(in.Acceptance))
	storage.MapSet(m, "code_paths", storage.StrSeq(in.CodePaths))
	tests := storage.NewMap()
	storage.MapSet(tests, "manual", storage.StrSeq(in.TestsManual))
	storage.MapSet(tests, "unit", storage.StrSeq(in.TestsUnit))
	storage.MapSet(tests, "e2e", storage.StrSeq(nil))
	storage.MapSet(m, "tests", tests)
	storage.MapSet(m, "artifacts", storage.StrSeq([]string{StampRel(in.ID)}))
	storage.MapSet(m, "dependencies", storage.StrSeq(nil))
	storage.MapSet(m, "risks", storage.StrSeq(nil))
	storage.MapSet(m, "requires_review", storage.BoolNode(false))
	w := &WU{Path: path.Join(cleanDir(wuDir), in.ID+".yaml"), Doc: &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{m}}}
	w.Refresh()
	return w
}

// ReadWU reads <wuDir>/<id>.yaml: NOT_FOUND when missing, VALIDATION when it does not parse.
func ReadWU(ws *Workspace, id string) (*WU, error) {
	if ws.Source != nil {
		return ws.Source.WU(id)
	}
	rel := ws.WUPath(id)
	data, err := os.ReadFile(ws.Abs(rel))
	if err != nil {
		return nil, WUReadError(id, rel, err)
	}
	return ParseWU(rel, data)
}

// WriteWU writes the WU document to its path under root.
func WriteWU(root string, w *WU) error {
	data, err := w.Bytes()
	if err != nil {
		return Errorf(tool.CodeInternal, "%s: %w", w.Path, err)
	}
	if err := storage.WriteFileAtomic(filepath.Join(root, filepath.FromSlash(w.Path)), data, 0o644); err != nil {
		return Errorf(tool.CodeIOError, "write %s: %w", w.Path, err)
	}
	return nil
}

var wuFileRe = regexp.MustCompile(`^(WU-\d+)\.yaml$`)

// WUFile is one WU spec found in wuDir: the parsed WU, or the error that prevented parsing.
type WUFile struct {
	ID  string // from the file name
	WU  *WU
	Err error
}

// ListWUs reads every WU-<n>.yaml in wuDir in ascending numeric order. Files that fail to
// parse are returned with their error (never silently dropped).
func ListWUs(ws *Workspace) ([]WUFile, error) {
	if ws.Source != nil {
		return ws.Source.WUs()
	}
	ids, err := wuFileIDs(ws)
	if err != nil {
		return nil, err
	}
	out := make([]WUFile, 0, len(ids))
	for _, id := range ids {
		w, err := ReadWU(ws, id)
		out = append(out, WUFile{ID: id, WU: w, Err: err})
	}
	return out, nil
}

func wuFileIDs(ws *Workspace) ([]string, error) {
	entries, err := os.ReadDir(ws.Abs(cleanDir(ws.Config.WUDir)))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, Errorf(tool.CodeIOError, "read %s: %w", ws.Config.WUDir, err)
	}
	var ids []string
	for _, e := range entries {
		if m := wuFileRe.FindStringSubmatch(e.Name()); m != nil && !e.IsDir() {
			ids = append(ids, m[1])
		}
	}
	SortWUIDs(ids)
	return ids, nil
}

// SortWUIDs sorts ids by their number, then lexically.
func SortWUIDs(ids []string) {
	sort.SliceStable(ids, func(i, j int) bool {
		a, b := WUNumber(ids[i]), WUNumber(ids[j])
		if a != b {
			return a < b
		}
		return ids[i] < ids[j]
	})
}

// NextWUID is WU-<max+1> over the YAML files, the stamps and the event log (corpus §2.5).
func NextWUID(ws *Workspace) (string, error) {
	max := 0
	ids, err := wuFileIDs(ws)
	if err != nil {
		return "", err
	}
	stamps, err := StampIDs(ws.Root)
	if err != nil {
		return "", err
	}
	for _, id := range append(ids, stamps...) {
		if n := WUNumber(id); n > max {
			max = n
		}
	}
	log, err := LoadEvents(ws.Root)
	if err != nil {
		return "", err
	}
	if n := log.MaxWUNumber(); n > max {
		max = n
	}
	return fmt.Sprintf("WU-%d", max+1), nil
}
