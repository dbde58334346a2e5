// Scaffolded by `cmdbridge scaffold git:log` from newGitLogApp (commands/files/git_log.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.GitLog, minus printing.

package files

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// LogInput is git:log's input: one field per adapter schema property, in the same order.
//
// MaxCount, Since and Author are pointers: an absent max_count is the default (20), and a
// given since or author, "" included, reaches git as the command's flag does.
type LogInput struct {
	MaxCount *int64  `json:"max_count,omitempty" jsonschema:"most commits to list"`
	Since    *string `json:"since,omitempty" jsonschema:"only commits after this date (any date form git log accepts)"`
	Author   *string `json:"author,omitempty" jsonschema:"only commits whose author matches"`
	Oneline  bool    `json:"oneline,omitempty" jsonschema:"print <sha7> <subject> per commit"`
	Ref      string  `json:"ref,omitempty" jsonschema:"commit, branch or range whose history to list (default: HEAD)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (LogInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["max_count"].Default = json.RawMessage(`20`)
	shell.Pattern(s, tool.OperandPattern, "ref")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "git:log",
		Domain:       "files",
		Description:  "List commits, newest first",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runLog))
}

// runLog serves git:log natively: the environment, then ops.GitLog in the call's directory.
// It needs no workspace (outside one git runs in the directory).
func runLog(ctx context.Context, env *tool.Env, in LogInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	op := ops.GitLogInput{MaxCount: int(shell.Or(in.MaxCount, 20)), Since: in.Since, Author: in.Author,
		Oneline: in.Oneline, Ref: in.Ref}
	data, notes, err := ops.GitLog(ctx, env.Dir, shell.LookupEnv(env), op)
	return shell.Result(data, notes, err)
}
