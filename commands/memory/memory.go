package memory

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
)

// loadMemory reads the memory store and prints a warning per skipped line.
func loadMemory(c *convention.Call, ws *delivery.Workspace) (*delivery.Memory, error) {
	m, err := delivery.LoadMemory(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range m.Warnings() {
		c.Warn("%s", w)
	}
	return m, nil
}
