package memory

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:delete", Domain: "memory",
		New: newMemDeleteApp, Main: convention.Main(newMemDeleteApp)})
}

func newMemDeleteApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "mem:delete",
		Usage:       "Soft-delete memory nodes by id, tag or age",
		Destructive: true, Idempotent: true,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "id", Usage: "node id mem-xxxx (repeatable)"},
			&cli.StringFlag{Name: "tag", Usage: "delete the nodes with this tag"},
			convention.Duration("older-than", "delete the nodes created longer ago than this", ""),
			&cli.BoolFlag{Name: "dry-run", Usage: "report without writing"},
		},
		Rules:   []convention.Rule{convention.OneOf("id", "tag", "older-than")},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:  memDelete,
	})
}

func memDelete(c *convention.Call) error {
	ids := c.Strings("id")
	for _, id := range ids {
		// TODO(convention): a repeatable MEM flag type would report this before the action.
		if !delivery.ValidMemoryID(id) {
			return c.Failf(tool.CodeUsage, "invalid value %q for --id: expected memory id like mem-1a2b", id)
		}
	}
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	m, err := loadMemory(c, ws)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if !m.Exists(id) {
			return c.Failf(tool.CodeNotFound, "memory node %s not found", id)
		}
	}
	rt := c.Runtime()
	now := rt.Now()
	tag := c.String("tag")
	age, byAge := convention.ParseDuration(c.Value("older-than"))
	deleted, skipped := []string{}, []string{}
	var versions []*delivery.MemNode
	for _, n := range m.Nodes {
		selected := slices.Contains(ids, n.ID) || (tag != "" && slices.Contains(n.Tags, tag)) ||
			(byAge && now.Sub(n.Created()) > age)
		if !selected {
			continue
		}
		if n.Deleted() {
			skipped = append(skipped, n.ID)
			continue
		}
		v := n.Clone()
		ts := delivery.Timestamp(now)
		v.Meta().Set("status", delivery.MemStatusDeleted)
		v.Meta().Set("deleted_at", ts)
		v.UpdatedAt = ts
		versions = append(versions, v)
		deleted = append(deleted, n.ID)
	}
	dry := c.Bool("dry-run")
	if !dry && len(versions) > 0 {
		if err := delivery.AppendMemory(ws.Root, versions...); err != nil {
			return err
		}
	}
	return c.Result(fmt.Sprintf("Deleted %d node(s)", len(deleted)), memDeleteData{Deleted: deleted, Skipped: skipped, DryRun: dry})
}

// memDeleteData is mem:delete's JSON data.
type memDeleteData struct {
	Deleted []string `json:"deleted"`
	Skipped []string `json:"skipped"`
	DryRun  bool     `json:"dry_run"`
}
