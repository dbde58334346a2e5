package ops

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// summarySourceTypes are the summarised types, in the summary's section order.
var summarySourceTypes = []string{delivery.MemTypeDiscovery, delivery.MemTypeCheckpoint, delivery.MemTypeNote, delivery.MemTypeSession}

// summaryLineMax is the longest content a summary line keeps, in characters.
const summaryLineMax = 200

// MemSummarizeInput is mem:summarize's input.
type MemSummarizeInput struct {
	// WU is the work unit whose nodes are summarised (required; its form is the shell's
	// check).
	WU string
	// DryRun builds the summary without writing it.
	DryRun bool
}

// MemSummarizeData is mem:summarize's JSON data.
type MemSummarizeData struct {
	Summary         *delivery.MemNode `json:"summary"`
	Marked          []string          `json:"marked"`
	CompactionRatio float64           `json:"compaction_ratio"`
	DryRun          bool              `json:"dry_run"`
}

// MemSummarize is corpus §3.4 mem:summarize: the WU's visible, non-ephemeral, not yet
// summarised discovery, checkpoint, note and session nodes aggregated into one project
// summary node, and every source that is not project marked with an appended version
// (summarized_into, summarized_at). NOT_FOUND without sources. DryRun writes nothing.
// Notes.Text is the summary content; the shell reports len(Marked) as progress.
func MemSummarize(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemSummarizeInput) (MemSummarizeData, Notes, error) {
	var notes Notes
	m, err := loadMemory(ws, &notes)
	if err != nil {
		return MemSummarizeData{}, notes, err
	}
	byType := map[string][]*delivery.MemNode{}
	var sources []*delivery.MemNode
	for _, n := range m.Visible() {
		if n.WUID == in.WU && n.Lifecycle != delivery.LifecycleEphemeral && n.Metadata.String("summarized_into") == "" {
			for _, t := range summarySourceTypes {
				if n.Type == t {
					sources = append(sources, n)
				}
			}
		}
	}
	if len(sources) == 0 {
		return MemSummarizeData{}, notes, &delivery.Error{Code: tool.CodeNotFound,
			Message: fmt.Sprintf("no memory nodes to summarise for %s", in.WU)}
	}
	delivery.SortNodes(sources)
	for _, n := range sources {
		byType[n.Type] = append(byType[n.Type], n)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Summary for %s\nAggregated from %d node(s)\n", in.WU, len(sources))
	for _, t := range summarySourceTypes {
		if len(byType[t]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "## %s%s(s)\n", strings.ToUpper(t[:1]), t[1:])
		for _, n := range byType[t] {
			b.WriteString("- " + cutSummaryLine(n.Content) + "\n")
		}
	}
	content := strings.TrimSuffix(b.String(), "\n")
	now := delivery.Timestamp(rt.Now())
	summary := newNode(m, delivery.MemTypeSummary, content, now, "summary-"+in.WU+"-"+now)
	summary.WUID = in.WU
	ids := make([]string, len(sources))
	for i, n := range sources {
		ids[i] = n.ID
	}
	summary.Meta().Set("source_nodes", ids)
	summary.Meta().Set("source_count", len(sources))
	summary.Meta().Set("summarized_at", now)
	versions := []*delivery.MemNode{summary}
	marked := []string{}
	for _, n := range sources {
		if n.Lifecycle == delivery.LifecycleProject {
			continue
		}
		v := n.Clone()
		v.Meta().Set("summarized_into", summary.ID)
		v.Meta().Set("summarized_at", now)
		v.UpdatedAt = now
		versions = append(versions, v)
		marked = append(marked, n.ID)
	}
	if !in.DryRun {
		if err := delivery.AppendMemory(ws.Root, versions...); err != nil {
			return MemSummarizeData{}, notes, err
		}
	}
	// The ratio of nodes compacted into the one summary node.
	ratio := math.Round(float64(len(sources))*10) / 10
	notes.Text = content + "\n"
	return MemSummarizeData{Summary: summary, Marked: marked, CompactionRatio: ratio, DryRun: in.DryRun}, notes, nil
}

// cutSummaryLine keeps at most summaryLineMax characters: 197 and "..." when longer.
func cutSummaryLine(s string) string {
	if utf8.RuneCountInString(s) <= summaryLineMax {
		return s
	}
	return string([]rune(s)[:summaryLineMax-3]) + "..."
}
