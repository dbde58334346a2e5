package agent

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
)

// open resolves the workspace of the directory the command was started in (spec §1.1).
func open(c *convention.Call) (*delivery.Workspace, error) {
	cwd, err := c.Dir()
	if err != nil {
		return nil, err
	}
	return delivery.Open(c.Context(), cwd, c.LookupEnv)
}
