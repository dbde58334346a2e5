package initiative

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
)

// flagPtr is a string flag's value when it was given, nil otherwise (the operations tell
// an absent flag from an empty one).
func flagPtr(c *convention.Call, flag string) *string {
	if !c.IsSet(flag) {
		return nil
	}
	v := c.String(flag)
	return &v
}

// linkResult is what linkWUs changed (ops.LinkResult).
type linkResult struct {
	linked, already, paths []string
}

// linkWUs links WUs to an initiative on both sides, as initiative:add-wu does
// (ops.LinkWUs); initiative:bulk-assign links each initiative's WUs with it.
func linkWUs(ws *delivery.Workspace, in *delivery.Initiative, ids []string, phase int) (linkResult, error) {
	res, err := ops.LinkWUs(ws, in, ids, phase)
	return linkResult{linked: res.Linked, already: res.Already, paths: res.Paths}, err
}
