package ops

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// triageTitleMax is the longest title mem:triage --promote derives, in characters.
const triageTitleMax = 80

// MemTriageInput is mem:triage's input. With Promote (a memory id) the discovery becomes a
// bug WU in Lane; with Archive it is archived with Reason; with neither the open
// discoveries are listed (of WU, else of the current session's WU, else all). The rules
// (Promote and Archive exclusive, Promote requiring Lane, Archive requiring Reason) are
// the shells' argv checks.
type MemTriageInput struct {
	WU, Promote, Lane, Title, Archive, Reason string
}

// MemTriageListData is mem:triage's JSON data when listing.
type MemTriageListData struct {
	Nodes []*delivery.MemNode `json:"nodes"`
}

// MemTriagePromoteData is mem:triage --promote's JSON data.
type MemTriagePromoteData struct {
	NodeID string  `json:"node_id"`
	WUID   string  `json:"wu_id"`
	Path   string  `json:"path"`
	Commit *Commit `json:"commit"`
}

// MemTriageArchiveData is mem:triage --archive's JSON data.
type MemTriageArchiveData struct {
	NodeID   string `json:"node_id"`
	Archived bool   `json:"archived"`
}

// MemTriage is corpus §3.4 mem:triage. Its data is MemTriageListData (Notes.Text the node
// lines, or "No open discoveries found."), MemTriagePromoteData or MemTriageArchiveData
// (Notes.Headline "Promoted <id> to <wu>: <title>" or "Archived <id>").
func MemTriage(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemTriageInput) (any, Notes, error) {
	var notes Notes
	m, err := loadMemory(ws, &notes)
	if err != nil {
		return nil, notes, err
	}
	switch {
	case in.Promote != "":
		data, err := triagePromote(ctx, ws, rt, &notes, m, in)
		if err != nil {
			return nil, notes, err
		}
		return data, notes, nil
	case in.Archive != "":
		data, err := triageArchive(ws, rt, &notes, m, in)
		if err != nil {
			return nil, notes, err
		}
		return data, notes, nil
	}
	wu, _ := SessionDefaults(ws, &notes, in.WU, "")
	nodes := []*delivery.MemNode{}
	for _, n := range m.Nodes {
		if n.Type == delivery.MemTypeDiscovery && (wu == "" || n.WUID == wu) && m.Open(n) {
			nodes = append(nodes, n)
		}
	}
	delivery.SortNodes(nodes)
	notes.Text = NodeLines(nodes)
	if len(nodes) == 0 {
		notes.Text = "No open discoveries found.\n"
	}
	return MemTriageListData{Nodes: nodes}, notes, nil
}

// triageTarget returns the node to promote or archive: an existing, visible discovery
// that is neither closed nor archived (NOT_FOUND, VALIDATION otherwise).
func triageTarget(m *delivery.Memory, id string) (*delivery.MemNode, error) {
	n := m.Get(id)
	if n == nil || n.Deleted() {
		return nil, delivery.Errorf(tool.CodeNotFound, "memory node %s not found", id)
	}
	if n.Type != delivery.MemTypeDiscovery {
		return nil, delivery.Errorf(tool.CodeValidation, "%s is a %s node, not a discovery", id, n.Type)
	}
	if s := n.Status(); s == delivery.MemStatusClosed || s == delivery.MemStatusArchived {
		return nil, delivery.Errorf(tool.CodeValidation, "%s is already %s", id, s)
	}
	return n, nil
}

// triagePromote creates the bug WU (as wu:create --no-strict), appends its create event,
// commits both, then closes the node with promoted_to.
func triagePromote(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, m *delivery.Memory, in MemTriageInput) (MemTriagePromoteData, error) {
	id := in.Promote
	n, err := triageTarget(m, id)
	if err != nil {
		return MemTriagePromoteData{}, err
	}
	if err := ws.Config.Check("software_delivery.lanes", "software_delivery.directories"); err != nil {
		return MemTriagePromoteData{}, err
	}
	if _, ok := ws.Config.Lane(in.Lane); len(ws.Config.Lanes) > 0 && !ok {
		return MemTriagePromoteData{}, delivery.Errorf(tool.CodeValidation, "unknown lane %q", in.Lane)
	}
	title := in.Title
	if title == "" {
		title = firstSentence(n.Content)
	}
	wuID, err := delivery.NextWUID(ws)
	if err != nil {
		return MemTriagePromoteData{}, err
	}
	priority := n.Priority()
	if priority == "" {
		priority = "P2"
	}
	now := rt.Now()
	w := delivery.NewWU(ws.Config.WUDir, delivery.NewWUInput{ID: wuID, Title: title, Lane: in.Lane, Type: "bug",
		Priority: priority, Created: delivery.Date(now), Description: n.Content})
	w.Set("notes", storage.StrNode("Promoted from discovery "+id))
	w.Refresh()
	if errs := delivery.ValidateStructure(w); len(errs) > 0 {
		return MemTriagePromoteData{}, &delivery.Error{Code: tool.CodeValidation, Message: errs[0],
			Details: map[string]any{"errors": errs}}
	}
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return MemTriagePromoteData{}, err
	}
	ts := delivery.Timestamp(now)
	if err := delivery.AppendEvents(ws.Root, delivery.Event{Type: delivery.EventCreate, WUID: wuID, Timestamp: ts,
		Lane: in.Lane, Title: title}); err != nil {
		return MemTriagePromoteData{}, err
	}
	commit, err := CommitPaths(ctx, ws, rt, notes, fmt.Sprintf("docs: create %s for %s", strings.ToLower(wuID), delivery.Title60(title)),
		w.Path, delivery.EventsFile)
	if err != nil {
		return MemTriagePromoteData{}, err
	}
	v := n.Clone()
	v.Meta().Set("status", delivery.MemStatusClosed)
	v.Meta().Set("promoted_to", wuID)
	v.UpdatedAt = ts
	if err := delivery.AppendMemory(ws.Root, v); err != nil {
		return MemTriagePromoteData{}, err
	}
	notes.Headline = fmt.Sprintf("Promoted %s to %s: %s", id, wuID, title)
	return MemTriagePromoteData{NodeID: id, WUID: wuID, Path: w.Path, Commit: commit}, nil
}

// triageArchive appends an archived version with the reason.
func triageArchive(ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, m *delivery.Memory, in MemTriageInput) (MemTriageArchiveData, error) {
	id := in.Archive
	n, err := triageTarget(m, id)
	if err != nil {
		return MemTriageArchiveData{}, err
	}
	v := n.Clone()
	v.Meta().Set("status", delivery.MemStatusArchived)
	v.Meta().Set("archived_reason", in.Reason)
	v.UpdatedAt = delivery.Timestamp(rt.Now())
	if err := delivery.AppendMemory(ws.Root, v); err != nil {
		return MemTriageArchiveData{}, err
	}
	notes.Headline = "Archived " + id
	return MemTriageArchiveData{NodeID: id, Archived: true}, nil
}

// firstSentence is the content up to its first '.', '!' or '?' (first line only), cut to
// triageTitleMax characters (77 and "...").
func firstSentence(content string) string {
	s, _, _ := strings.Cut(content, "\n")
	if i := strings.IndexAny(s, ".!?"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > triageTitleMax {
		s = string([]rune(s)[:triageTitleMax-3]) + "..."
	}
	return s
}
