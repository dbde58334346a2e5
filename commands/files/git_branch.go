package files

import (
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
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
	dir, err := c.Dir()
	if err != nil {
		return err
	}
	in := ops.GitBranchInput{All: c.Bool("all"), Remotes: c.Bool("remotes"), ShowCurrent: c.Bool("show-current")}
	if c.IsSet("contains") {
		contains := c.String("contains")
		in.Contains = &contains
	}
	data, notes, err := ops.GitBranch(c.Context(), dir, c.LookupEnv, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
