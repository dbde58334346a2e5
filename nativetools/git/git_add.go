package git

import (
	"context"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// AddInput is git:add's input.
type AddInput struct {
	Files []string `json:"files" jsonschema:"paths to stage (relative to the workspace root); deletions are staged too"`
}

// AdjustSchema refuses an empty files list, as the handler does.
func (AddInput) AdjustSchema(s *jsonschema.Schema) {
	shell.NonEmpty(s, "files")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "git:add",
		Description: "Stage the given files: additions, changes and deletions alike.",
		Annotations: tool.Annotations{Title: "Git add", IdempotentHint: true},
		Paths:       []tool.PathInput{{Property: "files", Access: tool.Write}},
	}, add))
}

func add(ctx context.Context, env *tool.Env, in AddInput) tool.Output {
	if len(in.Files) == 0 {
		return shell.Validation("git:add", []string{"files must not be empty"})
	}
	c, fail := shell.Start(env)
	if fail != nil {
		return *fail
	}
	root, err := c.GitRoot(ctx)
	if err != nil {
		return shell.Fail(err)
	}
	rels, err := confineAll(root, in.Files)
	if err != nil {
		return shell.Fail(err)
	}
	g := c.Git(root)
	if _, err := g.Output(ctx, append([]string{"add", "-A", "--"}, rels...)...); err != nil {
		return shell.Fail(err)
	}
	staged, err := g.Output(ctx, append([]string{"diff", "--cached", "--name-only", "-z", "--"}, rels...)...)
	if err != nil {
		return shell.Fail(err)
	}
	return tool.OK(map[string]any{"staged": splitZ(staged)})
}

// confineAll confines every path for writing (§3.3) and returns the root-relative forms.
func confineAll(root string, files []string) ([]string, error) {
	rels := make([]string, 0, len(files))
	for _, f := range files {
		_, rel, err := delivery.Confine(root, root, f, true)
		if err != nil {
			return nil, err
		}
		rels = append(rels, rel)
	}
	return rels, nil
}

func splitZ(s string) []string {
	out := []string{}
	for _, p := range strings.Split(s, "\x00") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
