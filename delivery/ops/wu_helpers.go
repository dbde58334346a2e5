package ops

import (
	"slices"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

// Helpers shared by the wu operations that edit initiatives and id lists (wu:delete,
// wu:edit).

// removeFromInitiative removes id from the initiative's wus list and writes it, reporting
// whether the file changed.
func removeFromInitiative(ws *delivery.Workspace, in *delivery.Initiative, id string) (bool, error) {
	if !slices.Contains(in.WUs, id) {
		return false, nil
	}
	kept := make([]string, 0, len(in.WUs))
	for _, have := range in.WUs {
		if have != id {
			kept = append(kept, have)
		}
	}
	in.Set("wus", storage.StrSeq(kept))
	in.Refresh()
	return true, delivery.WriteInitiative(ws.Root, in)
}

// uniq returns list without repeated values, first occurrences kept in order.
func uniq(list []string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
