package ops

import (
	"context"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// InitiativeListInput is initiative:list's input.
type InitiativeListInput struct {
	// Status, when set, keeps only initiatives with this derived status ("" matches none).
	Status *string
}

// InitiativeListData is initiative:list's JSON data.
type InitiativeListData struct {
	Initiatives []InitiativeRow `json:"initiatives"`
}

// InitiativeRow is one initiative of the list.
type InitiativeRow struct {
	ID        string `json:"id"`
	Slug      string `json:"slug"`
	Title     string `json:"title"`
	Status    string `json:"status"`
	RawStatus string `json:"raw_status"`
	Priority  string `json:"priority"`
	Done      int    `json:"done"`
	Total     int    `json:"total"`
	// Missing are the listed WUs whose spec is gone: not counted in done or total
	// (docs/real-data.md).
	Missing []string `json:"missing"`
}

// InitiativeList is corpus §3.5 initiative:list: every initiative (in ListInitiatives order)
// with its derived status and progress, optionally only those of one derived status. WU
// files that do not parse are warnings and left out; an initiative listing WUs without a
// spec is warned about once. The text table is the command's to render from the rows.
func InitiativeList(_ context.Context, ws *delivery.Workspace, in InitiativeListInput) (InitiativeListData, Notes, error) {
	var notes Notes
	all, err := delivery.ListInitiatives(ws)
	if err != nil {
		return InitiativeListData{}, notes, err
	}
	wus, err := readWUs(ws, &notes)
	if err != nil {
		return InitiativeListData{}, notes, err
	}
	data := InitiativeListData{Initiatives: []InitiativeRow{}}
	members := delivery.NewMembershipIndex(wus)
	for _, ini := range all {
		mine, missing := members.Members(ini)
		status := delivery.DerivedStatus(ini, mine)
		if in.Status != nil && status != *in.Status {
			continue
		}
		if len(missing) > 0 {
			notes.Warn("%s lists WUs that have no spec: %s", ini.ID, strings.Join(missing, ", "))
		}
		p := ProgressOf(mine)
		data.Initiatives = append(data.Initiatives, InitiativeRow{ID: ini.ID, Slug: ini.Slug, Title: ini.Title,
			Status: status, RawStatus: ini.Status, Priority: InitiativePriority(ini), Done: p.Done, Total: p.Total,
			Missing: append([]string{}, missing...)})
	}
	return data, notes, nil
}
