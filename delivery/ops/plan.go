package ops

import (
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// PlanTarget is the WU or initiative a plan id names; exactly one is set.
type PlanTarget struct {
	WU         *delivery.WU
	Initiative *delivery.Initiative
}

// ResolvePlanTarget checks a plan id (the plan:* commands' --id): VALIDATION when it is
// neither WU-<n> nor INIT-<id>, NOT_FOUND when that WU or initiative does not exist.
func ResolvePlanTarget(ws *delivery.Workspace, id string) (PlanTarget, error) {
	if !delivery.ValidPlanID(id) {
		return PlanTarget{}, badPlanID(id)
	}
	if delivery.ValidWUID(id) {
		w, err := delivery.ReadWU(ws, id)
		return PlanTarget{WU: w}, err
	}
	all, err := delivery.ListInitiatives(ws)
	if err != nil {
		return PlanTarget{}, err
	}
	for _, in := range all {
		if in.ID == id {
			return PlanTarget{Initiative: in}, nil
		}
	}
	return PlanTarget{}, delivery.Errorf(tool.CodeNotFound, "initiative %s not found", id)
}

// badPlanID is the VALIDATION error of a plan id that is neither WU-<n> nor INIT-<id>.
func badPlanID(id string) error {
	return delivery.Errorf(tool.CodeValidation, "id %q is neither WU-<n> nor INIT-<id>", id)
}

// readPlanOf checks a plan id and reads its plan (plan:edit, plan:promote): the plan's
// root-relative path and text; NOT_FOUND when the plan does not exist.
func readPlanOf(ws *delivery.Workspace, id string) (rel, text string, err error) {
	if !delivery.ValidPlanID(id) {
		return "", "", badPlanID(id)
	}
	rel = ws.PlanPath(id)
	text, err = delivery.ReadPlan(ws, rel)
	return rel, text, err
}
