package git

import (
	"context"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// CommitInput is git:commit's input.
type CommitInput struct {
	Message    string   `json:"message" jsonschema:"commit message (its first line is the subject)"`
	Files      []string `json:"files,omitempty" jsonschema:"stage and commit exactly these paths; without it the staged paths are committed"`
	AllowEmpty bool     `json:"allow_empty,omitempty" jsonschema:"allow a commit that changes nothing"`
}

// AdjustSchema refuses an empty message, as the handler does.
func (CommitInput) AdjustSchema(s *jsonschema.Schema) {
	shell.MinLength(s, 1, "message")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "git:commit",
		Description: "Commit files (or what is staged) on the current branch with the §2.4 identity and date rules; never pushes.",
		Annotations: tool.Annotations{Title: "Git commit"},
		Paths:       []tool.PathInput{{Property: "files", Access: tool.Write}},
	}, commit))
}

func commit(ctx context.Context, env *tool.Env, in CommitInput) tool.Output {
	if in.Message == "" {
		return shell.Validation("git:commit", []string{"message must not be empty"})
	}
	c, fail := shell.Start(env)
	if fail != nil {
		return *fail
	}
	root, err := c.GitRoot(ctx)
	if err != nil {
		return shell.Fail(err)
	}
	g := c.Git(root)
	paths := in.Files
	if len(paths) > 0 {
		if paths, err = confineAll(root, paths); err != nil {
			return shell.Fail(err)
		}
	} else {
		// Commit what is staged: exactly the staged paths, through the same pathspec
		// commit as every other commit in the corpus.
		staged, err := g.Output(ctx, "diff", "--cached", "--name-only", "-z")
		if err != nil {
			return shell.Fail(err)
		}
		paths = splitZ(staged)
	}
	cm, err := g.CommitPaths(ctx, in.Message, paths)
	if err != nil {
		return shell.Fail(err)
	}
	if cm == nil {
		if !in.AllowEmpty {
			return tool.Fail(tool.CodeNothingToCommit, "git:commit: nothing to commit")
		}
		if cm, err = g.CommitEmpty(ctx, in.Message); err != nil {
			return shell.Fail(err)
		}
	}
	files, err := g.Output(ctx, "diff-tree", "--root", "--no-commit-id", "--name-only", "-r", "-z", cm.SHA)
	if err != nil {
		return shell.Fail(err)
	}
	return tool.OK(map[string]any{"sha": cm.SHA, "subject": strings.SplitN(cm.Subject, "\n", 2)[0], "files": splitZ(files)})
}
