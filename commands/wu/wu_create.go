package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:create",
		New: newWUCreateApp, Main: convention.Main(newWUCreateApp)})
}

func newWUCreateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:create",
		Paths: map[string]string{"code_paths": "none", "test_paths_unit": "none", "test_paths_manual": "none"}, // recorded in the spec, never opened
		Usage: "Create a WU spec in status ready and commit it. Unless --no-strict (or --type=prototype), the strict rules also require description, acceptance, exposure and code_paths: see each",
		Flags: []cli.Flag{
			convention.NonBlank(&cli.StringFlag{Name: "lane", Usage: "lane of the WU (must be defined when lanes are)", Required: true}),
			convention.NonBlank(&cli.StringFlag{Name: "title", Usage: "title of the WU", Required: true}),
			convention.WU("id", "id of the new WU (default: the next free id)", false),
			&cli.StringFlag{Name: "description", Usage: "what the WU delivers and why; required unless --no-strict or --type=prototype: at least wu.minDescriptionLength characters once trimmed (50 by default), without [PLACEHOLDER]"},
			&cli.StringSliceFlag{Name: "acceptance", Usage: "an acceptance criterion (repeatable); at least one is required unless --no-strict or --type=prototype, none with [PLACEHOLDER]"},
			&cli.StringSliceFlag{Name: "code-paths", Usage: "a path or glob the WU changes (repeatable); at least one is required unless --no-strict or --type is documentation, process or prototype"},
			convention.Enum("exposure", "who sees the change; required unless --no-strict or --type=prototype", "", delivery.Exposures...),
			convention.Enum("type", "WU type (default: wu.defaultType)", "", delivery.WUTypes...),
			convention.Enum("priority", "priority (default: wu.defaultPriority)", "", delivery.Priorities...),
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug the WU belongs to"},
			convention.Int("phase", "phase within the initiative", 0, convention.Bound(1), nil),
			wuList("blocked-by", "a WU this one waits for", false),
			&cli.StringSliceFlag{Name: "test-paths-unit", Usage: "a unit test path (repeatable)"},
			&cli.StringSliceFlag{Name: "test-paths-manual", Usage: "a manual test step (repeatable)"},
			&cli.BoolFlag{Name: "no-strict", Usage: "only check the structure, not the strict rules (which require description, acceptance, exposure and code_paths)"},
		},
		Rules:  []convention.Rule{convention.Requires("phase", "initiative")},
		Action: wuCreate,
	})
}

func wuCreate(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUCreate(c.Context(), ws, c.Runtime(), ops.WUCreateInput{ID: c.Value("id"),
		Lane: c.String("lane"), Title: c.String("title"), Description: c.String("description"),
		Exposure: c.Value("exposure"), Type: c.Value("type"), Priority: c.Value("priority"),
		Initiative: c.String("initiative"), Phase: c.Int("phase"), Acceptance: c.Strings("acceptance"),
		CodePaths: c.Strings("code-paths"), BlockedBy: c.Strings("blocked-by"),
		TestPathsUnit: c.Strings("test-paths-unit"), TestPathsManual: c.Strings("test-paths-manual"),
		NoStrict: c.Bool("no-strict")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
