package initiative

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "delegation:list", Domain: "initiative",
		New: newDelegationListApp, Main: convention.Main(newDelegationListApp)})
}

func newDelegationListApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "delegation:list",
		Usage:    "List the delegations of a WU (recursively) or of an initiative as a tree",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("wu", "parent WU", false),
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug"},
		},
		Rules: []convention.Rule{
			convention.OneOf("wu", "initiative"),
			convention.Exclusive("wu", "initiative"),
		},
		Action: delegationList,
	})
}

func delegationList(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	reg, err := delivery.ReadDelegations(ws.Root)
	if err != nil {
		return err
	}
	for _, w := range reg.Warnings() {
		c.Warn("%s", w)
	}
	recs := append([]delivery.Delegation(nil), reg.Records...)
	delivery.SortByDelegatedAt(recs)

	var set []delivery.Delegation
	var isRoot func(d delivery.Delegation) bool
	if c.IsSet("wu") {
		wu := c.Value("wu")
		set = recs
		isRoot = func(d delivery.Delegation) bool { return d.ParentWUID == wu }
	} else {
		in, err := resolve(ws, c.String("initiative"))
		if err != nil {
			return err
		}
		all, err := readWUs(c, ws)
		if err != nil {
			return err
		}
		wus, missing := delivery.InitiativeWUs(in, all)
		member := map[string]bool{}
		for _, w := range wus {
			member[w.ID] = true
		}
		for _, id := range missing {
			member[id] = true // listed in wus without a spec file: still the initiative's
		}
		targets := map[string]bool{}
		for _, d := range recs {
			if member[d.ParentWUID] || member[d.TargetWUID] {
				set = append(set, d)
				targets[d.TargetWUID] = true
			}
		}
		// Roots are the delegations whose parent was not itself delegated within the set.
		isRoot = func(d delivery.Delegation) bool { return !targets[d.ParentWUID] }
	}
	data := delegationListData{Delegations: []delegationRow{}}
	var text strings.Builder
	seen := map[string]bool{}
	var walk func(d delivery.Delegation, depth int)
	walk = func(d delivery.Delegation, depth int) {
		if seen[d.ID] {
			return // a delegation cycle is listed once
		}
		seen[d.ID] = true
		data.Delegations = append(data.Delegations, delegationRow{ID: d.ID, Parent: d.ParentWUID,
			Target: d.TargetWUID, Lane: d.Lane, Intent: d.Intent, Status: d.Status,
			DelegatedAt: d.DelegatedAt, CompletedAt: d.CompletedAt, Depth: depth})
		fmt.Fprintf(&text, "%s%s  %s -> %s  %s  %s\n", strings.Repeat("  ", depth), d.ID, d.ParentWUID,
			d.TargetWUID, d.Status, d.DelegatedAt)
		for _, child := range set {
			if child.ParentWUID == d.TargetWUID {
				walk(child, depth+1)
			}
		}
	}
	for _, d := range set {
		if isRoot(d) {
			walk(d, 0)
		}
	}
	if len(data.Delegations) == 0 {
		text.WriteString("No delegations found.\n")
	}
	return c.Print(text.String(), data)
}

// delegationListData is delegation:list's JSON data, in tree order.
type delegationListData struct {
	Delegations []delegationRow `json:"delegations"`
}

type delegationRow struct {
	ID          string  `json:"id"`
	Parent      string  `json:"parent"`
	Target      string  `json:"target"`
	Lane        string  `json:"lane"`
	Intent      string  `json:"intent"`
	Status      string  `json:"status"`
	DelegatedAt string  `json:"delegated_at"`
	CompletedAt *string `json:"completed_at"`
	Depth       int     `json:"depth"`
}
