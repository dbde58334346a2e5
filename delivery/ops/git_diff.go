package ops

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/tool"
)

// GitDiffInput is git:diff's input (corpus §3.3).
type GitDiffInput struct {
	Staged, NameOnly, Stat bool
	Path                   *string // nil: not given
	Ref                    string  // "": the index, or HEAD with Staged
}

// Check is the rule the command checks before anything else: --stat and --name-only
// exclude each other.
func (in GitDiffInput) Check() error {
	if in.Stat && in.NameOnly {
		return delivery.Errorf(tool.CodeUsage, "flags --stat and --name-only cannot be used together")
	}
	return nil
}

// GitDiffData is git:diff's JSON data: {ref, staged, diff}, or {ref, staged, files} with
// NameOnly. Ref is null without a positional.
type GitDiffData struct {
	Ref      *string
	Staged   bool
	Diff     string   // git's output, byte-exact (with NameOnly, the names a line each)
	Files    []string // with NameOnly
	NameOnly bool
}

// MarshalJSON writes the shape NameOnly selects.
func (d GitDiffData) MarshalJSON() ([]byte, error) {
	if d.NameOnly {
		return json.Marshal(struct {
			Ref    *string  `json:"ref"`
			Staged bool     `json:"staged"`
			Files  []string `json:"files"`
		}{d.Ref, d.Staged, d.Files})
	}
	return json.Marshal(struct {
		Ref    *string `json:"ref"`
		Staged bool    `json:"staged"`
		Diff   string  `json:"diff"`
	}{d.Ref, d.Staged, d.Diff})
}

// GitDiff is corpus §3.3 git:diff for a call started in dir: `git diff` with --no-color
// --no-ext-diff in the workspace root (else dir), on a scratch copy of the index.
// Notes.Text is git's output.
func GitDiff(ctx context.Context, dir string, env gitrepo.LookupEnv, in GitDiffInput) (GitDiffData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return GitDiffData{}, notes, err
	}
	base, err := confineBase(ctx, dir, env)
	if err != nil {
		return GitDiffData{}, notes, err
	}
	args := []string{"diff", "--no-color", "--no-ext-diff"}
	if in.Staged {
		args = append(args, "--cached")
	}
	switch {
	case in.NameOnly:
		args = append(args, "--name-only")
	case in.Stat:
		args = append(args, "--stat")
	}
	data := GitDiffData{Staged: in.Staged, NameOnly: in.NameOnly}
	// --end-of-options: the ref is a revision, never an option (--output=FILE would
	// have git write FILE), whatever reaches the command.
	args = append(args, "--end-of-options")
	if in.Ref != "" {
		ref := in.Ref
		data.Ref = &ref
		args = append(args, ref)
	}
	args = append(args, "--")
	if in.Path != nil {
		_, rel, err := delivery.Confine(base, dir, *in.Path, false)
		if err != nil {
			return GitDiffData{}, notes, err
		}
		args = append(args, rel)
	}
	out, err := gitReadScratchIndex(ctx, base, env, args...)
	if err != nil {
		return GitDiffData{}, notes, err
	}
	data.Diff = out
	if in.NameOnly {
		data.Files = []string{}
		if s := strings.TrimSuffix(out, "\n"); s != "" {
			data.Files = strings.Split(s, "\n")
		}
	}
	notes.Text = out
	return data, notes, nil
}
