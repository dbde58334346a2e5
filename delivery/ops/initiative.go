package ops

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The helpers below are shared by the initiative operations (initiative:create,
// initiative:edit, initiative:add-wu, initiative:remove-wu, initiative:bulk-assign,
// plan:link).

// PhaseNode is one {id, title, status} phase mapping.
func PhaseNode(id int, title, status string) *yaml.Node {
	p := storage.NewMap()
	storage.MapSet(p, "id", storage.IntNode(int64(id)))
	storage.MapSet(p, "title", storage.StrNode(title))
	storage.MapSet(p, "status", storage.StrNode(status))
	return p
}

// SeqOf returns the block sequence under key, creating it (or unflowing an empty one).
func SeqOf(m *yaml.Node, key string) *yaml.Node {
	seq := storage.MapGet(m, key)
	if seq == nil || seq.Kind != yaml.SequenceNode {
		seq = storage.NewSeq()
		storage.MapSet(m, key, seq)
	}
	if len(seq.Content) == 0 {
		seq.Style = 0
	}
	return seq
}

// AppendItems appends string items to the list under key (skipping ones present when
// dedupe) and reports whether anything was added.
func AppendItems(m *yaml.Node, key string, items []string, dedupe bool) bool {
	seq := storage.MapGet(m, key)
	var have []string
	if seq != nil && seq.Kind == yaml.SequenceNode {
		have, _ = storage.StringList(seq)
	}
	var add []string
	for _, it := range items {
		if dedupe && (slices.Contains(have, it) || slices.Contains(add, it)) {
			continue
		}
		add = append(add, it)
	}
	if len(add) == 0 {
		return false
	}
	seq = SeqOf(m, key)
	for _, it := range add {
		seq.Content = append(seq.Content, storage.StrNode(it))
	}
	return true
}

// LinkResult is what LinkWUs changed: the WUs newly linked, those already linked, and
// the root-relative files written.
type LinkResult struct {
	Linked, Already, Paths []string
}

// LinkWUs sets each WU's initiative (and phase when > 0) and appends it to the
// initiative's wus list (initiative:add-wu, initiative:bulk-assign). Every WU is read and
// checked before anything is written: a WU linked to another initiative is VALIDATION
// (unlink it first) and nothing changes. A repeated id counts once.
func LinkWUs(ws *delivery.Workspace, in *delivery.Initiative, ids []string, phase int) (LinkResult, error) {
	res := LinkResult{Linked: []string{}, Already: []string{}}
	var wus []*delivery.WU
	var problems []string
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		w, err := delivery.ReadWU(ws, id)
		if err != nil {
			return res, err
		}
		if w.Initiative != "" && w.Initiative != in.ID && w.Initiative != in.Slug {
			problems = append(problems, fmt.Sprintf("%s is linked to %s; unlink it first", id, w.Initiative))
		}
		wus = append(wus, w)
	}
	if len(problems) > 0 {
		return res, delivery.Errorf(tool.CodeValidation, "%s", problems[0]).WithDetails(map[string]any{"errors": problems})
	}
	list := append([]string(nil), in.WUs...)
	for _, w := range wus {
		changed := false
		if w.Initiative != in.ID && w.Initiative != in.Slug {
			w.Set("initiative", storage.StrNode(in.ID))
			changed = true
		}
		if phase > 0 && w.Phase != phase {
			w.Set("phase", storage.IntNode(int64(phase)))
			changed = true
		}
		if changed {
			if err := delivery.WriteWU(ws.Root, w); err != nil {
				return res, err
			}
			res.Paths = append(res.Paths, w.Path)
		}
		if !slices.Contains(list, w.ID) {
			list = append(list, w.ID)
			changed = true
		}
		if changed {
			res.Linked = append(res.Linked, w.ID)
		} else {
			res.Already = append(res.Already, w.ID)
		}
	}
	if len(list) != len(in.WUs) {
		AppendItems(storage.Root(in.Doc), "wus", list[len(in.WUs):], true)
		if err := delivery.WriteInitiative(ws.Root, in); err != nil {
			return res, err
		}
		in.Refresh()
		res.Paths = append(res.Paths, in.Path)
	}
	return res, nil
}
