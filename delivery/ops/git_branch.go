package ops

import (
	"context"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
)

// GitBranchInput is git:branch's input (corpus §3.3).
type GitBranchInput struct {
	All, Remotes, ShowCurrent bool
	Contains                  *string // nil: not given
}

// GitBranchData is git:branch's JSON data; Current is null on a detached HEAD.
type GitBranchData struct {
	Current  *string         `json:"current"`
	Branches []GitBranchItem `json:"branches"`
}

// GitBranchItem is one branch of git:branch.
type GitBranchItem struct {
	Name    string `json:"name"`
	Current bool   `json:"current"`
	Remote  bool   `json:"remote"`
}

// GitBranch is corpus §3.3 git:branch for a call started in dir, run in the workspace root
// (else dir). Notes.Text is the text output.
func GitBranch(ctx context.Context, dir string, env gitrepo.LookupEnv, in GitBranchInput) (GitBranchData, Notes, error) {
	var notes Notes
	base, err := confineBase(ctx, dir, env)
	if err != nil {
		return GitBranchData{}, notes, err
	}
	cur, err := gitRead(ctx, base, nil, "branch", "--show-current")
	if err != nil {
		return GitBranchData{}, notes, err
	}
	current := strings.TrimSpace(cur)
	refs := []string{"refs/heads"}
	switch {
	case in.Remotes:
		refs = []string{"refs/remotes"}
	case in.All:
		refs = append(refs, "refs/remotes")
	}
	args := []string{"for-each-ref", "--format=%(refname)%00%(symref)"}
	if in.Contains != nil {
		// One word: git reads what follows "--contains=" as its value, never as an option.
		args = append(args, "--contains="+*in.Contains)
	}
	out, err := gitRead(ctx, base, nil, append(args, refs...)...)
	if err != nil {
		return GitBranchData{}, notes, err
	}
	data := GitBranchData{Branches: []GitBranchItem{}}
	if current != "" {
		data.Current = &current
	}
	var text strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		ref, symref, _ := strings.Cut(line, "\x00")
		if ref == "" || symref != "" {
			continue // origin/HEAD and other symbolic refs are aliases, not branches
		}
		b := GitBranchItem{Name: strings.TrimPrefix(ref, "refs/heads/")}
		if name, ok := strings.CutPrefix(ref, "refs/remotes/"); ok {
			b.Name, b.Remote = name, true
		}
		b.Current = !b.Remote && b.Name == current
		data.Branches = append(data.Branches, b)
		prefix := "  "
		if b.Current {
			prefix = "* "
		}
		text.WriteString(prefix + b.Name + "\n")
	}
	if in.ShowCurrent {
		text.Reset()
		if current != "" {
			text.WriteString(current + "\n")
		}
	}
	notes.Text = text.String()
	return data, notes, nil
}
