package ops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// InitiativeRemoveWUInput is initiative:remove-wu's input: the initiative id or slug and
// the WU id (already checked to be WU-<n>).
type InitiativeRemoveWUInput struct {
	Initiative, WU string
}

// InitiativeRemoveWUData is initiative:remove-wu's JSON data.
type InitiativeRemoveWUData struct {
	Initiative string  `json:"initiative"`
	WU         string  `json:"wu"`
	Removed    bool    `json:"removed"`
	Commit     *Commit `json:"commit"`
}

// InitiativeRemoveWU is corpus §3.5 initiative:remove-wu: it removes the id from the
// initiative's wus list and the WU's initiative and phase when they point at this
// initiative (by id or slug), and commits both sides. A listed id whose WU file is gone
// can still be unlinked; a WU linked neither way is NOT_FOUND and nothing changes.
// Notes.Headline is "Unlinked <wu> from <init>".
func InitiativeRemoveWU(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in InitiativeRemoveWUInput) (InitiativeRemoveWUData, Notes, error) {
	var notes Notes
	ini, err := delivery.ResolveInitiative(ws, in.Initiative)
	if err != nil {
		return InitiativeRemoveWUData{}, notes, err
	}
	id := in.WU
	w, err := delivery.ReadWU(ws, id)
	inList := slices.Contains(ini.WUs, id)
	if err != nil && !(inList && delivery.CodeOf(err) == tool.CodeNotFound) {
		return InitiativeRemoveWUData{}, notes, err // a listed id without a file can still be unlinked
	}
	pointsHere := w != nil && (w.Initiative == ini.ID || w.Initiative == ini.Slug)
	if !inList && !pointsHere {
		return InitiativeRemoveWUData{}, notes, delivery.Errorf(tool.CodeNotFound, "%s is not linked to %s", id, ini.ID)
	}
	var paths []string
	if pointsHere {
		w.Delete("initiative")
		w.Delete("phase")
		if err := delivery.WriteWU(ws.Root, w); err != nil {
			return InitiativeRemoveWUData{}, notes, err
		}
		paths = append(paths, w.Path)
	}
	if inList {
		seq := storage.MapGet(storage.Root(ini.Doc), "wus")
		keep := seq.Content[:0]
		for _, n := range seq.Content {
			if n.Kind != yaml.ScalarNode || n.Value != id {
				keep = append(keep, n)
			}
		}
		seq.Content = keep
		if len(keep) == 0 {
			seq.Style = yaml.FlowStyle
		}
		if err := delivery.WriteInitiative(ws.Root, ini); err != nil {
			return InitiativeRemoveWUData{}, notes, err
		}
		paths = append(paths, ini.Path)
	}
	cm, err := CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("docs: unlink %s from %s", strings.ToLower(id), strings.ToLower(ini.ID)), paths...)
	if err != nil {
		return InitiativeRemoveWUData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Unlinked %s from %s", id, ini.ID)
	return InitiativeRemoveWUData{Initiative: ini.ID, WU: id, Removed: true, Commit: cm}, notes, nil
}
