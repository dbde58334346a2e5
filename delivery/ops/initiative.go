package ops

import (
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// The helpers below are shared by the initiative writers (initiative:create, initiative:edit,
// initiative:add-wu, initiative:remove-wu) and by the legacy commands that still edit
// initiatives and WUs themselves (initiative:bulk-assign, plan:link).

// PhaseNode is one {id, title, status} phase mapping.
func PhaseNode(id int, title, status string) *yaml.Node {
	p := delivery.NewMap()
	delivery.MapSet(p, "id", delivery.IntNode(int64(id)))
	delivery.MapSet(p, "title", delivery.StrNode(title))
	delivery.MapSet(p, "status", delivery.StrNode(status))
	return p
}

// SeqOf returns the block sequence under key, creating it (or unflowing an empty one).
func SeqOf(m *yaml.Node, key string) *yaml.Node {
	seq := delivery.MapGet(m, key)
	if seq == nil || seq.Kind != yaml.SequenceNode {
		seq = delivery.NewSeq()
		delivery.MapSet(m, key, seq)
	}
	if len(seq.Content) == 0 {
		seq.Style = 0
	}
	return seq
}

// AppendItems appends string items to the list under key (skipping ones present when
// dedupe) and reports whether anything was added.
func AppendItems(m *yaml.Node, key string, items []string, dedupe bool) bool {
	seq := delivery.MapGet(m, key)
	var have []string
	if seq != nil && seq.Kind == yaml.SequenceNode {
		have, _ = delivery.StringList(seq)
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
		seq.Content = append(seq.Content, delivery.StrNode(it))
	}
	return true
}
