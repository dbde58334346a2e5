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

// readWUs reads every WU spec; files that do not parse are reported as warnings and left
// out (a listing must not fail on one bad file, and must not hide it either).
func readWUs(c *convention.Call, ws *delivery.Workspace) ([]*delivery.WU, error) {
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return nil, err
	}
	wus := make([]*delivery.WU, 0, len(files))
	for _, f := range files {
		if f.Err != nil {
			c.Warn("%s: %s", f.ID, delivery.AsError(f.Err).Message)
			continue
		}
		wus = append(wus, f.WU)
	}
	return wus, nil
}

// resolve finds an initiative by id then slug.
func resolve(ws *delivery.Workspace, ref string) (*delivery.Initiative, error) {
	return delivery.ResolveInitiative(ws, ref)
}

// progress is an initiative's WU counts by status (shared with the native lane).
type progress = ops.InitiativeProgress

// progressOf counts an initiative's WUs by normalised status (ops.ProgressOf).
func progressOf(wus []*delivery.WU) progress { return ops.ProgressOf(wus) }

// nullable turns "" into a JSON null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
