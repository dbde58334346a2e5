package agent

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "agent:log-issue",
		New: newAgentLogIssueApp, Main: convention.Main(newAgentLogIssueApp)})
}

func newAgentLogIssueApp() *cli.App {
	category := convention.Enum("category", "incident category", "", delivery.IncidentCategories...)
	category.Required = true
	severity := convention.Enum("severity", "incident severity", "", delivery.IncidentSeverities...)
	severity.Required = true
	return convention.App(convention.Spec{
		Name:  "agent:log-issue",
		Usage: "Log an incident of the active agent session",
		Flags: []cli.Flag{
			category,
			severity,
			&cli.StringFlag{Name: "title", Usage: "short title (5 to 100 characters)", Required: true},
			&cli.StringFlag{Name: "description", Usage: "what happened (10 to 2000 characters)", Required: true},
			&cli.StringFlag{Name: "resolution", Usage: "how it was resolved"},
			&cli.StringSliceFlag{Name: "tag", Usage: "tag (repeatable)"},
			&cli.StringFlag{Name: "step", Usage: "the workflow step the agent was in"},
			&cli.StringSliceFlag{Name: "file", Usage: "a related file (repeatable)"},
		},
		Action: agentLogIssue,
	})
}

func agentLogIssue(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	inc := delivery.Incident{
		Category:    c.Value("category"),
		Severity:    c.Value("severity"),
		Title:       c.String("title"),
		Description: c.String("description"),
		Resolution:  c.String("resolution"),
		Tags:        nonNil(c.Strings("tag")),
		Context:     delivery.IncidentContext{CurrentStep: c.String("step"), RelatedFiles: c.Strings("file")},
	}
	// Bad input is reported before anything else is looked at, so it never writes.
	if errs := delivery.ValidateIncident(inc); len(errs) > 0 {
		return c.Fail(tool.CodeValidation, errs[0], map[string]any{"errors": errs})
	}
	s, err := delivery.ReadSession(ws.Root)
	if err != nil {
		return err
	}
	if s == nil {
		return c.Failf(tool.CodeNotFound, "no active session (start one with agent:session)")
	}
	inc.Timestamp = c.Runtime().NowString()
	inc.SessionID, inc.WUID, inc.Lane = s.SessionID, s.WUID, s.Lane
	if delivery.InWorkTree(c.Context(), ws.Root) {
		branch, err := delivery.NewGit(ws.Root, c.Runtime()).CurrentBranch(c.Context())
		if err == nil {
			inc.Context.GitBranch = branch
		}
	}
	if err := delivery.AppendIncident(ws.Root, inc); err != nil {
		return err
	}
	s.IncidentsLogged++
	if inc.Major() {
		s.IncidentsMajor++
	}
	if err := delivery.WriteSession(ws.Root, s); err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Logged %s %s issue: %s", inc.Severity, inc.Category, inc.Title),
		logIssueData{Incident: inc, File: delivery.IncidentRel(inc.Category)})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// logIssueData is agent:log-issue's JSON data.
type logIssueData struct {
	Incident delivery.Incident `json:"incident"`
	File     string            `json:"file"`
}
