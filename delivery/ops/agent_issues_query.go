package ops

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// AgentIssuesQueryInput is agent:issues-query's input.
type AgentIssuesQueryInput struct {
	// Since is how many days to look back from Now (--since, default 7).
	Since int
	// Category and Severity keep only the incidents of that category or severity; ""
	// keeps any.
	Category, Severity string
	// Now is the call's "now" (the runtime's clock).
	Now time.Time
}

// AgentIssuesQueryData is agent:issues-query's JSON data: the counts keep the summary's
// order (descending count, then name) in their objects.
type AgentIssuesQueryData struct {
	Total      int                 `json:"total"`
	ByCategory *OrderedMap         `json:"by_category"`
	BySeverity *OrderedMap         `json:"by_severity"`
	Recent     []delivery.Incident `json:"recent"`
}

// AgentIssuesQuery is corpus §3.6 agent:issues-query: the incidents agent:log-issue wrote
// (.lumenflow/incidents/*.ndjson) with timestamp ≥ now − since days that match the
// filters, counted by category and severity, with the 10 newest. A line that does not
// decode is a warning. Notes.Text is the text-mode output (its own layout).
func AgentIssuesQuery(ctx context.Context, ws *delivery.Workspace, in AgentIssuesQueryInput) (AgentIssuesQueryData, Notes, error) {
	var notes Notes
	all, warnings, err := delivery.ReadIncidents(ws.Root)
	if err != nil {
		return AgentIssuesQueryData{}, notes, err
	}
	for _, w := range warnings {
		notes.Warn("%s", w)
	}
	since := in.Now.Add(-time.Duration(in.Since) * 24 * time.Hour)
	sum := delivery.QueryIncidents(all, delivery.IncidentQuery{Since: since, Category: in.Category, Severity: in.Severity})
	data := AgentIssuesQueryData{Total: sum.Total, ByCategory: countsMap(sum.ByCategory),
		BySeverity: countsMap(sum.BySeverity), Recent: sum.Recent}
	var b strings.Builder
	fmt.Fprintf(&b, "%d issue(s) in the last %d day(s)\n", sum.Total, in.Since)
	b.WriteString("By category:\n")
	for _, n := range sum.ByCategory {
		fmt.Fprintf(&b, "  %s: %d\n", n.Name, n.N)
	}
	b.WriteString("By severity:\n")
	for _, n := range sum.BySeverity {
		fmt.Fprintf(&b, "  %s: %d\n", n.Name, n.N)
	}
	b.WriteString("Recent:\n")
	for _, i := range sum.Recent {
		fmt.Fprintf(&b, "  %s  %s  %s  %s\n", i.Timestamp, i.Severity, i.Category, i.Title)
	}
	notes.Text = b.String()
	return data, notes, nil
}

// countsMap keeps the counts' order in a JSON object.
func countsMap(cs []delivery.Count) *OrderedMap {
	m := &OrderedMap{}
	for _, n := range cs {
		m.Set(n.Name, n.N)
	}
	return m
}
