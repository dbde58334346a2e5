// Scaffolded by `cmdbridge scaffold git:branch` from newGitBranchApp (commands/files/git_branch.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.GitBranch, minus printing.

package files

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// BranchInput is git:branch's input: one field per adapter schema property, in the same order.
//
// Contains is a pointer: a given contains, "" included, reaches git as the command's flag does.
type BranchInput struct {
	All         bool    `json:"all,omitempty" jsonschema:"list local and remote-tracking branches"`
	Remotes     bool    `json:"remotes,omitempty" jsonschema:"list remote-tracking branches only"`
	ShowCurrent bool    `json:"show_current,omitempty" jsonschema:"print only the current branch name"`
	Contains    *string `json:"contains,omitempty" jsonschema:"list only branches that contain this commit"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (BranchInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Pattern(s, tool.OperandPattern, "contains")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "git:branch",
		Domain:       "files",
		Description:  "List the repository's branches and show the current one",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runBranch))
}

// runBranch serves git:branch natively: the environment, then ops.GitBranch in the call's
// directory. It needs no workspace (outside one git runs in the directory).
func runBranch(ctx context.Context, env *tool.Env, in BranchInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	op := ops.GitBranchInput{All: in.All, Remotes: in.Remotes, ShowCurrent: in.ShowCurrent, Contains: in.Contains}
	data, notes, err := ops.GitBranch(ctx, env.Dir, shell.LookupEnv(env), op)
	return shell.Result(data, notes, err)
}
