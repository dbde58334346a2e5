package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:proto",
		New: newWUProtoApp, Main: convention.Main(newWUProtoApp)})
}

func newWUProtoApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:proto",
		Usage: "Create a prototype WU with relaxed rules and claim it right away",
		Flags: []cli.Flag{
			convention.NonBlank(&cli.StringFlag{Name: "lane", Usage: "the lane of the prototype", Required: true}),
			convention.NonBlank(&cli.StringFlag{Name: "title", Usage: "the prototype's title", Required: true}),
			&cli.StringFlag{Name: "description", Usage: "what the prototype explores"},
			&cli.StringSliceFlag{Name: "code-paths", Usage: "a path the prototype touches (repeatable)"},
			&cli.StringSliceFlag{Name: "labels", Usage: "a label (repeatable, never split on commas)"},
			&cli.BoolFlag{Name: "branch-only", Usage: "claim in the main checkout instead of a worktree"},
		},
		Action: wuProto,
	})
}

// Fixed values of a prototype WU (spec §3.1 wu:proto).
const (
	protoAcceptance = "Prototype demonstrates concept"
	protoNotes      = "Prototype WU - relaxed validation applies"
)

func wuProto(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	created, err := createWU(c, ws, createInput{Lane: c.String("lane"), Title: c.String("title"),
		Description: c.String("description"), Type: "prototype", Priority: "P3", Exposure: "backend-only",
		Acceptance: []string{protoAcceptance}, CodePaths: c.Strings("code-paths"), Labels: c.Strings("labels"),
		Notes: protoNotes})
	if err != nil {
		return err
	}
	// If the claim fails the created WU stays ready and the claim's error is the result.
	claimed, err := claimWU(c, ws, claimInput{ID: created.WU.ID, Lane: created.WU.Lane, BranchOnly: c.Bool("branch-only")})
	if err != nil {
		return err
	}
	return c.Result("Created and claimed "+created.WU.ID+": "+created.WU.Title, wuProtoData{ID: created.WU.ID,
		Path: created.WU.Path, Lane: created.WU.Lane, WorktreePath: claimed.WorktreePath, Branch: claimed.Branch,
		CreateCommit: created.Commit, Commit: claimed.Commit})
}

// wuProtoData is wu:proto's JSON data: the create step's commit and the claim's.
type wuProtoData struct {
	ID           string             `json:"id"`
	Path         string             `json:"path"`
	Lane         string             `json:"lane"`
	WorktreePath *string            `json:"worktree_path"`
	Branch       *string            `json:"branch"`
	CreateCommit *convention.Commit `json:"create_commit"`
	Commit       *convention.Commit `json:"commit"`
}

// Committed gives rule R4 the claim commit (the create commit is listed in the JSON).
func (d wuProtoData) Committed() *convention.Commit { return d.Commit }
