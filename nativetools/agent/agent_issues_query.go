// Scaffolded by `cmdbridge scaffold agent:issues-query` from newAgentIssuesQueryApp (commands/agent/agent_issues_query.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.AgentIssuesQuery, minus printing.

package agent

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// IssuesQueryInput is agent:issues-query's input: one field per adapter schema property, in the same order.
// Since is a pointer because 0 is not absent (absent is 7 days). The schema refuses a
// severity that is none ("" included), so an empty Severity, like an empty Category, is
// any.
type IssuesQueryInput struct {
	Since    *int64 `json:"since,omitempty" jsonschema:"days to look back"`
	Category string `json:"category,omitempty" jsonschema:"only this category"`
	Severity string `json:"severity,omitempty" jsonschema:"only this severity (blocker|major|minor|info)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (IssuesQueryInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["since"].Default = json.RawMessage(`7`)
	shell.Choices(s, "severity", delivery.IncidentSeverities...)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "agent:issues-query",
		Description:  "Summarise the incidents logged by agent:log-issue over the last days",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runIssuesQuery))
}

// runIssuesQuery serves agent:issues-query natively: the environment, the workspace (warm
// when the host keeps an index), then ops.AgentIssuesQuery at the runtime's now.
func runIssuesQuery(ctx context.Context, env *tool.Env, in IssuesQueryInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	ws, err := shell.ReadWorkspace(ctx, env)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.AgentIssuesQuery(ctx, ws, ops.AgentIssuesQueryInput{Since: int(shell.Or(in.Since, 7)),
		Category: in.Category, Severity: in.Severity, Now: c.RT.Now()})
	return shell.Result(data, notes, err)
}
