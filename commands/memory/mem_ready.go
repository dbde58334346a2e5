package memory

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:ready", Domain: "memory",
		New: newMemReadyApp, Main: convention.Main(newMemReadyApp)})
}

func newMemReadyApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "mem:ready",
		Usage:    "List the open memory nodes of a WU, highest priority first",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("wu", "work unit", true),
			convention.Enum("type", "only nodes of this type", "", delivery.MemoryTypes...),
		},
		Action: memReady,
	})
}

func memReady(c *convention.Call) error {
	wu := c.Value("wu")
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	m, err := loadMemory(c, ws)
	if err != nil {
		return err
	}
	nodes := nonNil(m.ReadyNodes(wu, c.Value("type")))
	text := nodeLines(nodes)
	if len(nodes) == 0 {
		text = fmt.Sprintf("No ready nodes for %s.\n", wu)
	}
	return c.Print(text, memReadyData{WU: wu, Nodes: nodes})
}

// memReadyData is mem:ready's JSON data.
type memReadyData struct {
	WU    string              `json:"wu"`
	Nodes []*delivery.MemNode `json:"nodes"`
}
