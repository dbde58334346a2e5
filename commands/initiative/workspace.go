package initiative

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
)

// openWorkspace opens the workspace and checks the keys every command of this domain reads.
func openWorkspace(c *convention.Call) (*delivery.Workspace, error) {
	return c.Workspace("software_delivery.directories")
}

// progress is an initiative's WU counts by status (shared with the native lane).
type progress = ops.InitiativeProgress

// progressOf counts an initiative's WUs by normalised status (ops.ProgressOf).
func progressOf(wus []*delivery.WU) progress { return ops.ProgressOf(wus) }
