package wu

import (
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:unlock-lane",
		New: newWUUnlockLaneApp, Main: convention.Main(newWUUnlockLaneApp)})
}

func newWUUnlockLaneApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "wu:unlock-lane",
		Usage:       "List lane locks, or clear one with an audit reason",
		Destructive: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "lane", Usage: "the lane whose lock to clear"},
			&cli.StringFlag{Name: "reason", Usage: "why the lock is cleared (printed as an audit line)"},
			&cli.BoolFlag{Name: "force", Usage: "clear a lock that is not stale"},
			&cli.BoolFlag{Name: "list", Usage: "list every lane lock (read-only)"},
		},
		Rules: []convention.Rule{
			convention.Exclusive("list", "lane"),
			convention.Exclusive("list", "reason"),
			convention.Exclusive("list", "force"),
			convention.OneOf("list", "lane"),
			convention.Requires("lane", "reason"),
		},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("list"))},
		Action:  wuUnlockLane,
	})
}

func wuUnlockLane(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	if c.Bool("list") {
		data, _, err := ops.WULaneLocks(c.Context(), ws, c.Runtime())
		if err != nil {
			return err
		}
		var rows [][]string
		for _, info := range data.Locks {
			age := "-"
			if info.AgeMinutes != nil {
				age = strconv.Itoa(*info.AgeMinutes) + "m"
			}
			stale := "no"
			if info.Stale {
				stale = "yes"
			}
			rows = append(rows, []string{dash(info.Lane), dash(info.WUID), dash(info.Owner), age, stale})
		}
		return c.Print(convention.Table("locks", []string{"lane", "wu", "owner", "age", "stale"}, rows), data)
	}
	data, notes, err := ops.WUUnlockLane(c.Context(), ws, c.Runtime(), ops.WUUnlockLaneInput{Lane: c.String("lane"),
		Reason: c.String("reason"), Force: c.Bool("force")})
	if err != nil {
		return err
	}
	c.Progress("%s", data.Audit)
	return c.OpsResult(notes.Headline, data, nil, "")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
