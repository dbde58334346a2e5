// Scaffolded by `cmdbridge scaffold agent:log-issue` from newAgentLogIssueApp (commands/agent/agent_log_issue.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.AgentLogIssue, minus printing.

package agent

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// LogIssueInput is agent:log-issue's input: one field per adapter schema property, in the same order.
// The schema requires the first four and refuses a category or severity that is none; an
// empty title or description is given, too short (VALIDATION). An empty resolution or
// step is left out, as absent.
type LogIssueInput struct {
	Category    string   `json:"category" jsonschema:"incident category (workflow|tooling|confusion|violation|error)"`
	Severity    string   `json:"severity" jsonschema:"incident severity (blocker|major|minor|info)"`
	Title       string   `json:"title" jsonschema:"short title (5 to 100 characters)"`
	Description string   `json:"description" jsonschema:"what happened (10 to 2000 characters)"`
	Resolution  string   `json:"resolution,omitempty" jsonschema:"how it was resolved"`
	Tag         []string `json:"tag,omitempty" jsonschema:"tag (repeatable)"`
	Step        string   `json:"step,omitempty" jsonschema:"the workflow step the agent was in"`
	File        []string `json:"file,omitempty" jsonschema:"a related file (repeatable)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (LogIssueInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Choices(s, "category", delivery.IncidentCategories...)
	shell.Choices(s, "severity", delivery.IncidentSeverities...)
	shell.MinLength(s, 5, "title")
	shell.MaxLength(s, 100, "title")
	shell.MinLength(s, 10, "description")
	shell.MaxLength(s, 2000, "description")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "agent:log-issue",
		Description: "Log an incident of the active agent session",
	}, runLogIssue))
}

// runLogIssue serves agent:log-issue natively: the environment, then ops.AgentLogIssue on
// the workspace inside the call's journal (a failed call leaves the incident file and
// the session as they were).
func runLogIssue(ctx context.Context, env *tool.Env, in LogIssueInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	ws, err := ops.OpenWorkspace(ctx, env.Dir, shell.LookupEnv(env))
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	op := ops.AgentLogIssueInput{Category: in.Category, Severity: in.Severity, Title: in.Title,
		Description: in.Description, Resolution: in.Resolution, Step: in.Step, Tags: in.Tag, Files: in.File}
	data, notes, err := shell.Journaled(ctx, c.RT, ws, func() (ops.AgentLogIssueData, ops.Notes, error) {
		return ops.AgentLogIssue(ctx, ws, c.RT, op)
	})
	shell.Wrote(env, ws.Root)
	return shell.Result(data, notes, err)
}
