package flow

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "flow:bottlenecks",
		New: newFlowBottlenecksApp, Main: convention.Main(newFlowBottlenecksApp)})
}

func newFlowBottlenecksApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "flow:bottlenecks",
		Usage:    "Rank open WUs by how many open WUs they transitively block, and show the critical path",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.Int("limit", "maximum number of bottlenecks listed", 10, convention.Bound(0), nil),
		},
		Action: flowBottlenecks,
	})
}

func flowBottlenecks(c *convention.Call) error {
	ws, err := open(c)
	if err != nil {
		return err
	}
	b, notes, err := ops.FlowBottlenecks(c.Context(), ws, ops.FlowBottlenecksInput{Limit: c.Int("limit")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	if c.JSON {
		return c.Print("", b)
	}
	return c.Print(bottlenecksText(b), b)
}

// bottlenecksText is the R3 table followed by the critical path line.
func bottlenecksText(b delivery.Bottlenecks) string {
	rows := make([][]string, 0, len(b.Bottlenecks))
	for _, x := range b.Bottlenecks {
		rows = append(rows, []string{x.ID, strconv.Itoa(x.Score), x.Title})
	}
	text := convention.Table("bottlenecks", []string{"wu", "score", "title"}, rows)
	cp := b.CriticalPath
	switch {
	case len(cp.CycleNodes) > 0:
		text += fmt.Sprintf("Critical path: none (cycle: %s)\n", strings.Join(cp.CycleNodes, ", "))
	case len(cp.Path) == 0:
		text += "Critical path: none (0)\n"
	default:
		text += fmt.Sprintf("Critical path: %s (%d)\n", strings.Join(cp.Path, " -> "), cp.Length)
	}
	return text
}
