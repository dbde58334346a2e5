package flow

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
)

// open opens the workspace and checks the keys every flow command reads.
func open(c *convention.Call) (*delivery.Workspace, error) {
	return c.Workspace(ops.FlowKeys...)
}
