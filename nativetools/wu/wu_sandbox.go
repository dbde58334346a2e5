// Scaffolded by `cmdbridge scaffold wu:sandbox` from newWUSandboxApp (commands/wu/wu_sandbox.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUSandbox, minus printing.

package wu

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

// SandboxInput is wu:sandbox's input: one field per adapter schema property, in the same order.
type SandboxInput struct {
	ID       string   `json:"id" jsonschema:"the WU whose worktree to run in (WU-<n>)"`
	Worktree string   `json:"worktree,omitempty" jsonschema:"directory to run in (inside the workspace)"`
	Timeout  string   `json:"timeout,omitempty" jsonschema:"kill the command's process group after this long (e.g. 30m, 24h, 7d)"`
	Command  []string `json:"command" jsonschema:"the command to run and its arguments"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (SandboxInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
	s.Properties["timeout"].Default = json.RawMessage(`"` + defaultSandboxTimeout + `"`)
	shell.Durations(s, "timeout")
	s.Properties["command"].MinItems = jsonschema.Ptr(1)
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Required, Properties: []string{"command"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:sandbox",
		Description: "Run a command in a WU's worktree (directory isolation only, no OS sandbox)",
		Annotations: tool.Annotations{DestructiveHint: true, OpenWorldHint: true, RunsCodeHint: true},
		Paths:       []tool.PathInput{{Property: "worktree", Access: tool.Write}},
	}, runSandbox))
}

// defaultSandboxTimeout is the timeout property's default, as the command's flag has it.
const defaultSandboxTimeout = "10m"

// runSandbox serves wu:sandbox natively: the workspace read (wu:sandbox writes nothing
// itself and holds no journal, since the command it runs may be a writer of the same
// worktree), then ops.WUSandbox with both streams captured into the data, as the
// command's JSON mode has them. The command runs in the host's jail (the kernel's,
// carried by the context) with the call's declared environment. A non-zero exit or a
// timeout is CHECK_FAILED with the data.
func runSandbox(ctx context.Context, env *tool.Env, in SandboxInput) tool.Output {
	text := in.Timeout
	if text == "" {
		text = defaultSandboxTimeout
	}
	timeout, err := shell.Duration("timeout", text)
	return shell.Serve(ctx, env, shell.Op[ops.WUSandboxData]{Argv: err, Keys: ops.WUKeys, Reports: tool.CodeCheckFailed,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUSandboxData, ops.Notes, error) {
			return ops.WUSandbox(ctx, ws, rt, ops.WUSandboxInput{ID: in.ID, Worktree: in.Worktree, Dir: env.Dir,
				Command: in.Command, Timeout: *timeout, TimeoutText: text})
		}})
}
