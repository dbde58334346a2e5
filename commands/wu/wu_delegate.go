package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:delegate",
		New: newWUDelegateApp, Main: convention.Main(newWUDelegateApp)})
}

func newWUDelegateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:delegate",
		Usage: "Brief a WU for a sub-agent and record the delegation lineage",
		Flags: []cli.Flag{
			convention.WU("id", "the target WU the sub-agent will do", true),
			convention.WU("parent-wu", "the WU delegating the work", true),
			&cli.StringFlag{Name: "client", Usage: "the agent client (default: agents.defaultClient)"},
			&cli.BoolFlag{Name: "no-context", Usage: "leave out the memory context"},
		},
		Action: wuDelegate,
	})
}

func wuDelegate(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	parent := c.Value("parent-wu")
	if _, err := delivery.ReadWU(ws, parent); err != nil {
		if delivery.CodeOf(err) == tool.CodeNotFound {
			return delivery.Errorf(tool.CodeNotFound, "parent %s not found (%s)", parent, ws.WUPath(parent))
		}
		return err
	}
	client, err := ops.BriefClient(ws, c.String("client"))
	if err != nil {
		return err
	}
	reg, err := delivery.ReadDelegations(ws.Root)
	if err != nil {
		return err
	}
	for _, b := range reg.Bad {
		c.Warn("%s", b.Warning("delegation-registry.jsonl"))
	}
	rt := c.Runtime()
	id := delivery.NewID(rt, delivery.KindDelegation, reg.Has)
	var notes ops.Notes
	br, err := ops.Brief(ws, rt, &notes, w, client, c.Bool("no-context"), false)
	for _, warning := range notes.Warnings {
		c.Warn("%s", warning)
	}
	if err != nil {
		return err
	}
	now := delivery.Timestamp(rt.Now())
	rec := delivery.Delegation{ID: id, ParentWUID: parent, TargetWUID: w.ID, Lane: w.Lane, Intent: "delegation",
		DelegatedAt: now, Status: "pending",
		BriefAttestation: &delivery.BriefAttestation{Algorithm: "sha256", PromptHash: br.SHA256, PromptLength: br.Length,
			GeneratedAt: now, ClientName: client}}
	if err := delivery.AppendDelegations(ws.Root, rec); err != nil {
		return err
	}
	if err := appendEvent(c, ws, delivery.Event{Type: delivery.EventDelegation, WUID: w.ID,
		ParentWUID: parent, DelegationID: id}); err != nil {
		return err
	}
	c.Progress("Delegation %s: %s -> %s", id, parent, w.ID)
	return c.Print(br.Prompt, wuDelegateData{ID: w.ID, ParentWU: parent, DelegationID: id,
		Prompt: br.Prompt, PromptSHA256: br.SHA256})
}

// wuDelegateData is wu:delegate's JSON data.
type wuDelegateData struct {
	ID           string `json:"id"`
	ParentWU     string `json:"parent_wu"`
	DelegationID string `json:"delegation_id"`
	Prompt       string `json:"prompt"`
	PromptSHA256 string `json:"prompt_sha256"`
}
