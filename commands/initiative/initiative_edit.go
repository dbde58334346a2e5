package initiative

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:edit",
		New: newInitiativeEditApp, Main: convention.Main(newInitiativeEditApp)})
}

// editChangeFlags are the flags that change something; at least one is required.
var editChangeFlags = []string{"title", "status", "description", "notes", "add-phase", "phase-id",
	"add-success-metric", "target-date", "blocked-by", "unblock"}

func newInitiativeEditApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:edit",
		Usage: "Edit an initiative's fields, phases, metrics or block state and commit it",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "id", Usage: "initiative id or slug", Required: true},
			&cli.StringFlag{Name: "title", Usage: "new title"},
			convention.Enum("status", "new status", "", "draft", "open", "in_progress", "done", "archived"),
			&cli.StringFlag{Name: "description", Usage: "new description"},
			&cli.StringFlag{Name: "notes", Usage: "note appended to the notes list"},
			&cli.StringSliceFlag{Name: "add-phase", Usage: "title of a new pending phase, once per phase"},
			convention.Int("phase-id", "phase to update (with --phase-status)", 0, nil, nil),
			convention.Enum("phase-status", "new status of --phase-id", "", "pending", "in_progress", "done", "blocked"),
			&cli.StringSliceFlag{Name: "add-success-metric", Usage: "success metric to add, once per metric"},
			convention.Date("target-date", "new target date"),
			&cli.StringFlag{Name: "blocked-by", Usage: "what blocks the initiative"},
			&cli.StringFlag{Name: "blocked-reason", Usage: "why it is blocked (with --blocked-by)"},
			&cli.BoolFlag{Name: "unblock", Usage: "remove blocked_by and blocked_reason"},
		},
		Rules: []convention.Rule{
			convention.OneOf(editChangeFlags...),
			convention.Together("phase-id", "phase-status"),
			convention.Requires("blocked-reason", "blocked-by"),
			convention.Exclusive("unblock", "blocked-by"),
		},
		Destructive: true,
		Action:      initiativeEdit,
	})
}

func initiativeEdit(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	in, err := resolve(ws, c.String("id"))
	if err != nil {
		return err
	}
	root := delivery.Root(in.Doc)
	changed := []string{}
	setStr := func(key, v string) {
		if cur := delivery.MapGet(root, key); cur != nil && cur.Kind == yaml.ScalarNode && cur.Value == v {
			return
		}
		in.Set(key, delivery.StrNode(v))
		changed = append(changed, key)
	}
	if c.IsSet("title") {
		setStr("title", c.String("title"))
	}
	if c.IsSet("status") {
		setStr("status", c.Value("status"))
	}
	if c.IsSet("description") {
		setStr("description", c.String("description"))
	}
	if c.IsSet("notes") {
		appendItems(root, "notes", []string{c.String("notes")}, false)
		changed = append(changed, "notes")
	}
	phasesChanged := false
	if adds := c.Strings("add-phase"); len(adds) > 0 {
		next := 0
		for _, p := range in.Phases {
			next = max(next, p.ID)
		}
		seq := seqOf(root, "phases")
		for _, title := range adds {
			next++
			seq.Content = append(seq.Content, ops.PhaseNode(next, title, "pending"))
		}
		phasesChanged = true
	}
	if c.IsSet("phase-id") {
		id := c.Int("phase-id")
		seq := delivery.MapGet(root, "phases")
		var target *yaml.Node
		for i, p := range in.Phases {
			if p.ID == id && seq != nil {
				target = seq.Content[i]
				break
			}
		}
		if target == nil {
			return c.Failf(tool.CodeNotFound, "phase %d not found in %s", id, in.ID)
		}
		if cur := delivery.MapGet(target, "status"); cur == nil || cur.Value != c.Value("phase-status") {
			delivery.MapSet(target, "status", delivery.StrNode(c.Value("phase-status")))
			phasesChanged = true
		}
	}
	if phasesChanged {
		changed = append(changed, "phases")
	}
	if adds := c.Strings("add-success-metric"); len(adds) > 0 && appendItems(root, "success_metrics", adds, true) {
		changed = append(changed, "success_metrics")
	}
	if c.IsSet("target-date") {
		if cur := delivery.MapGet(root, "target_date"); cur == nil || cur.Value != c.Value("target-date") {
			in.Set("target_date", delivery.DateNode(c.Value("target-date")))
			changed = append(changed, "target_date")
		}
	}
	if c.IsSet("blocked-by") {
		setStr("blocked_by", c.String("blocked-by"))
		if c.IsSet("blocked-reason") {
			setStr("blocked_reason", c.String("blocked-reason"))
		}
	}
	if c.Bool("unblock") {
		for _, k := range []string{"blocked_by", "blocked_reason"} {
			if in.Delete(k) {
				changed = append(changed, k)
			}
		}
	}
	var cm *convention.Commit
	if len(changed) > 0 {
		if err := delivery.WriteInitiative(ws.Root, in); err != nil {
			return err
		}
		if cm, err = c.Commit(ws, "docs: edit "+lower(in.ID), in.Path); err != nil {
			return err
		}
	}
	return c.Result(fmt.Sprintf("Edited %s", in.ID), initiativeEditData{ID: in.ID, Changed: changed, Commit: cm})
}

// seqOf returns the block sequence under key, creating it (or unflowing an empty one).
func seqOf(m *yaml.Node, key string) *yaml.Node {
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

// appendItems appends string items to the list under key (skipping ones present when
// dedupe) and reports whether anything was added.
func appendItems(m *yaml.Node, key string, items []string, dedupe bool) bool {
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
	seq = seqOf(m, key)
	for _, it := range add {
		seq.Content = append(seq.Content, delivery.StrNode(it))
	}
	return true
}

// initiativeEditData is initiative:edit's JSON data: changed lists the keys that changed.
type initiativeEditData struct {
	ID      string             `json:"id"`
	Changed []string           `json:"changed"`
	Commit  *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d initiativeEditData) Committed() *convention.Commit { return d.Commit }
