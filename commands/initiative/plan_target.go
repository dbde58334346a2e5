package initiative

import (
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
)

// planTarget is the WU or initiative a plan id names; exactly one is set.
type planTarget struct {
	wu         *delivery.WU
	initiative *delivery.Initiative
}

// resolvePlanTarget is ops.ResolvePlanTarget for the plan commands still on the adapter.
func resolvePlanTarget(ws *delivery.Workspace, id string) (planTarget, error) {
	t, err := ops.ResolvePlanTarget(ws, id)
	return planTarget{wu: t.WU, initiative: t.Initiative}, err
}
