package files

import (
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "git:branch", Domain: "files",
		New: newGitBranchApp, Main: convention.Main(newGitBranchApp)})
}

func newGitBranchApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "git:branch",
		Usage:    "List the repository's branches and show the current one",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "list local and remote-tracking branches"},
			&cli.BoolFlag{Name: "remotes", Usage: "list remote-tracking branches only"},
			&cli.BoolFlag{Name: "show-current", Usage: "print only the current branch name"},
			// A commit, never an option: the schema refuses a value beginning with "-".
			legacy.Constrain(&cli.StringFlag{Name: "contains", Usage: "list only branches that contain this commit"},
				func(s *jsonschema.Schema) { s.Pattern = tool.OperandPattern }),
		},
		Action: gitBranch,
	})
}

func gitBranch(c *convention.Call) error {
	dir, _, err := rootOrCwd(c)
	if err != nil {
		return err
	}
	cur, err := git(c.Context(), dir, nil, "branch", "--show-current")
	if err != nil {
		return err
	}
	current := strings.TrimSpace(string(cur))
	refs := []string{"refs/heads"}
	switch {
	case c.Bool("remotes"):
		refs = []string{"refs/remotes"}
	case c.Bool("all"):
		refs = append(refs, "refs/remotes")
	}
	args := []string{"for-each-ref", "--format=%(refname)%00%(symref)"}
	if c.IsSet("contains") {
		// One word: git reads what follows "--contains=" as its value, never as an option.
		args = append(args, "--contains="+c.String("contains"))
	}
	out, err := git(c.Context(), dir, nil, append(args, refs...)...)
	if err != nil {
		return err
	}
	data := gitBranchData{Branches: []gitBranchItem{}}
	if current != "" {
		data.Current = &current
	}
	var text strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		ref, symref, _ := strings.Cut(line, "\x00")
		if ref == "" || symref != "" {
			continue // origin/HEAD and other symbolic refs are aliases, not branches
		}
		b := gitBranchItem{Name: strings.TrimPrefix(ref, "refs/heads/")}
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
	if c.Bool("show-current") {
		text.Reset()
		if current != "" {
			text.WriteString(current + "\n")
		}
	}
	return c.Print(text.String(), data)
}

// gitBranchData is git:branch's JSON data; current is null on a detached HEAD.
type gitBranchData struct {
	Current  *string         `json:"current"`
	Branches []gitBranchItem `json:"branches"`
}

type gitBranchItem struct {
	Name    string `json:"name"`
	Current bool   `json:"current"`
	Remote  bool   `json:"remote"`
}
