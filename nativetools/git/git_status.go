package git

import (
	"context"
	"strconv"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// StatusInput is git:status's input.
type StatusInput struct {
	Path string `json:"path,omitempty" jsonschema:"limit the status to this subtree (relative to the workspace root)"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "git:status",
		Description:  "Show the working tree status: branch, upstream, ahead/behind and changed entries. Never initialises a repository.",
		Annotations:  tool.Annotations{Title: "Git status", ReadOnlyHint: true, IdempotentHint: true},
		Paths:        []tool.PathInput{{Property: "path", Access: tool.Read}},
		ParallelSafe: true,
	}, status))
}

// StatusEntry is one changed path.
type StatusEntry struct {
	Path     string  `json:"path"`
	OrigPath *string `json:"orig_path"`
	Index    string  `json:"index"`
	Worktree string  `json:"worktree"`
}

// StatusData is git:status's data.
type StatusData struct {
	Branch   *string       `json:"branch"`
	Detached bool          `json:"detached"`
	Upstream *string       `json:"upstream"`
	Ahead    *int          `json:"ahead"`
	Behind   *int          `json:"behind"`
	Clean    bool          `json:"clean"`
	Entries  []StatusEntry `json:"entries"`
}

func status(ctx context.Context, env *tool.Env, in StatusInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return *fail
	}
	root, err := c.GitRoot(ctx)
	if err != nil {
		return shell.Fail(err)
	}
	args := []string{"status", "--porcelain=v1", "-b", "-z"}
	if in.Path != "" {
		_, rel, err := delivery.Confine(root, root, in.Path, false)
		if err != nil {
			return shell.Fail(err)
		}
		args = append(args, "--", rel)
	}
	out, err := c.Git(root).Output(ctx, args...)
	if err != nil {
		return shell.Fail(err)
	}
	return tool.OK(ParseStatus(out))
}

// ParseStatus parses `git status --porcelain=v1 -b -z` output.
func ParseStatus(out string) StatusData {
	d := StatusData{Entries: []StatusEntry{}}
	fields := strings.Split(out, "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if f == "" {
			continue
		}
		if strings.HasPrefix(f, "## ") {
			parseBranch(&d, strings.TrimPrefix(f, "## "))
			continue
		}
		if len(f) < 4 {
			continue
		}
		e := StatusEntry{Index: f[0:1], Worktree: f[1:2], Path: f[3:]}
		if f[0] == 'R' || f[0] == 'C' || f[1] == 'R' || f[1] == 'C' {
			if i+1 < len(fields) {
				orig := fields[i+1]
				e.OrigPath = &orig
				i++
			}
		}
		d.Entries = append(d.Entries, e)
	}
	d.Clean = len(d.Entries) == 0
	return d
}

func parseBranch(d *StatusData, h string) {
	switch {
	case strings.HasPrefix(h, "HEAD (no branch)"):
		d.Detached = true
		return
	case strings.HasPrefix(h, "No commits yet on "):
		b := strings.TrimPrefix(h, "No commits yet on ")
		d.Branch = &b
		return
	case strings.HasPrefix(h, "Initial commit on "):
		b := strings.TrimPrefix(h, "Initial commit on ")
		d.Branch = &b
		return
	}
	head, track, _ := strings.Cut(h, " [")
	branch, upstream, hasUp := strings.Cut(head, "...")
	d.Branch = &branch
	if !hasUp {
		return
	}
	d.Upstream = &upstream
	ahead, behind := 0, 0
	for _, part := range strings.Split(strings.TrimSuffix(track, "]"), ", ") {
		if n, ok := strings.CutPrefix(part, "ahead "); ok {
			ahead, _ = strconv.Atoi(n)
		}
		if n, ok := strings.CutPrefix(part, "behind "); ok {
			behind, _ = strconv.Atoi(n)
		}
	}
	d.Ahead, d.Behind = &ahead, &behind
}
