package initiative

import (
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// planTarget is the WU or initiative a plan id names; exactly one is set.
type planTarget struct {
	wu         *delivery.WU
	initiative *delivery.Initiative
}

// resolvePlanTarget checks a plan --id: VALIDATION when it is neither WU-<n> nor
// INIT-<id>, NOT_FOUND when that WU or initiative does not exist.
func resolvePlanTarget(ws *delivery.Workspace, id string) (planTarget, error) {
	if !delivery.ValidPlanID(id) {
		return planTarget{}, delivery.Errorf(tool.CodeValidation, "id %q is neither WU-<n> nor INIT-<id>", id)
	}
	if delivery.ValidWUID(id) {
		w, err := delivery.ReadWU(ws, id)
		return planTarget{wu: w}, err
	}
	all, err := delivery.ListInitiatives(ws)
	if err != nil {
		return planTarget{}, err
	}
	for _, in := range all {
		if in.ID == id {
			return planTarget{initiative: in}, nil
		}
	}
	return planTarget{}, delivery.Errorf(tool.CodeNotFound, "initiative %s not found", id)
}
