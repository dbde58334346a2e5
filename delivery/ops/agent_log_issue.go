package ops

import (
	"context"
	"fmt"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/tool"
)

// AgentLogIssueInput is agent:log-issue's input. The shell has checked the category and
// severity against delivery.IncidentCategories and delivery.IncidentSeverities.
type AgentLogIssueInput struct {
	Category, Severity string
	// Title (5–100 characters) and Description (10–2000 characters), counted in runes.
	Title, Description string
	// Resolution, Step: "" leaves them out.
	Resolution, Step string
	// Tags and Files (the incident's related files), in the order given.
	Tags, Files []string
}

// AgentLogIssueData is agent:log-issue's JSON data: the incident as appended and its
// root-relative file.
type AgentLogIssueData struct {
	Incident delivery.Incident `json:"incident"`
	File     string            `json:"file"`
}

// AgentLogIssue is corpus §3.6 agent:log-issue: the incident of the active session, stamped
// with now, the session's id, WU and lane and (inside a git work tree) the current
// branch, appended to .lumenflow/incidents/<category>.ndjson; the session's
// incidents_logged (and incidents_major for major and blocker) go up by one. Bad lengths
// are VALIDATION (every violation listed) before anything else is read, so they never
// write; no active session is NOT_FOUND. Run it in the call's journal: a failure after
// the append leaves both files as they were. Notes.Headline is the text headline.
func AgentLogIssue(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in AgentLogIssueInput) (AgentLogIssueData, Notes, error) {
	var notes Notes
	inc := delivery.Incident{
		Category:    in.Category,
		Severity:    in.Severity,
		Title:       in.Title,
		Description: in.Description,
		Resolution:  in.Resolution,
		Tags:        orEmpty(in.Tags),
		Context:     delivery.IncidentContext{CurrentStep: in.Step, RelatedFiles: in.Files},
	}
	if errs := delivery.ValidateIncident(inc); len(errs) > 0 {
		return AgentLogIssueData{}, notes, (&delivery.Error{Code: tool.CodeValidation, Message: errs[0]}).
			WithDetails(map[string]any{"errors": errs})
	}
	s, err := delivery.ReadSession(ws.Root)
	if err != nil {
		return AgentLogIssueData{}, notes, err
	}
	if s == nil {
		return AgentLogIssueData{}, notes, delivery.Errorf(tool.CodeNotFound, "no active session (start one with agent:session)")
	}
	inc.Timestamp = rt.NowString()
	inc.SessionID, inc.WUID, inc.Lane = s.SessionID, s.WUID, s.Lane
	if gitrepo.InWorkTree(ctx, ws.Root) {
		if branch, err := delivery.NewGit(ws.Root, rt).CurrentBranch(ctx); err == nil {
			inc.Context.GitBranch = branch
		}
	}
	if err := delivery.AppendIncident(ws.Root, inc); err != nil {
		return AgentLogIssueData{}, notes, err
	}
	s.IncidentsLogged++
	if inc.Major() {
		s.IncidentsMajor++
	}
	if err := delivery.WriteSession(ws.Root, s); err != nil {
		return AgentLogIssueData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Logged %s %s issue: %s", inc.Severity, inc.Category, inc.Title)
	return AgentLogIssueData{Incident: inc, File: delivery.IncidentRel(inc.Category)}, notes, nil
}
