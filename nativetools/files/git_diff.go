// Scaffolded by `cmdbridge scaffold git:diff` from newGitDiffApp (commands/files/git_diff.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.GitDiff, minus printing.

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

// DiffInput is git:diff's input: one field per adapter schema property, in the same order.
//
// Path is a pointer: a given path, "" included, is checked as the command's flag is.
type DiffInput struct {
	Staged   bool    `json:"staged,omitempty" jsonschema:"diff the index instead of the working tree"`
	NameOnly bool    `json:"name_only,omitempty" jsonschema:"list changed file names only"`
	Stat     bool    `json:"stat,omitempty" jsonschema:"print a diffstat"`
	Path     *string `json:"path,omitempty" jsonschema:"limit the diff to this path"`
	Ref      string  `json:"ref,omitempty" jsonschema:"commit, branch or range to compare with (default: the index, or HEAD with staged)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (DiffInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Pattern(s, tool.OperandPattern, "ref")
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"stat", "name_only"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "git:diff",
		Domain:       "files",
		Description:  "Show the working tree's or the index's changes, byte-exact",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		Paths:        []tool.PathInput{{Property: "path", Access: tool.Read}},
		ParallelSafe: true,
	}, runDiff))
}

// runDiff serves git:diff natively: the environment, then ops.GitDiff in the call's
// directory. It needs no workspace (outside one git runs in the directory, and the path
// is confined to it).
func runDiff(ctx context.Context, env *tool.Env, in DiffInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	op := ops.GitDiffInput{Staged: in.Staged, NameOnly: in.NameOnly, Stat: in.Stat, Path: in.Path, Ref: in.Ref}
	data, notes, err := ops.GitDiff(ctx, env.Dir, shell.LookupEnv(env), op)
	return shell.Result(data, notes, err)
}
