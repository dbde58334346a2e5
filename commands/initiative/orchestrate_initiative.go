package initiative

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "orchestrate:initiative", Domain: "initiative",
		New: newOrchestrateInitiativeApp, Main: convention.Main(newOrchestrateInitiativeApp)})
}

func newOrchestrateInitiativeApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "orchestrate:initiative",
		Usage: "Plan an initiative's execution waves and signal the first wave",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug", Required: true},
			&cli.BoolFlag{Name: "dry-run", Usage: "plan only, send no signals"},
			&cli.BoolFlag{Name: "progress", Usage: "print orchestrate:init-status and stop"},
		},
		Rules:   []convention.Rule{convention.Exclusive("progress", "dry-run")},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run")), tool.ReadOnlyWhen(tool.IsSet("progress"))},
		Action:  orchestrateInitiative,
	})
}

func orchestrateInitiative(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	if c.Bool("progress") {
		return printInitStatus(c, ws, c.String("initiative"))
	}
	in, err := resolve(ws, c.String("initiative"))
	if err != nil {
		return err
	}
	all, err := readWUs(c, ws)
	if err != nil {
		return err
	}
	wus, _ := delivery.InitiativeWUs(in, all)
	plan, err := delivery.PlanWaves(wus, all)
	if err != nil {
		return err
	}
	data := orchestrateData{Initiative: in.ID, Waves: plan.Waves, Skipped: plan.Skipped,
		Deferred: plan.Deferred, SignalsSent: []string{}}
	if !c.Bool("dry-run") && len(plan.Waves) > 0 {
		store, err := delivery.LoadSignals(ws.Root)
		if err != nil {
			return err
		}
		for _, w := range store.Warnings() {
			c.Warn("%s", w)
		}
		unread := map[string]bool{}
		for _, s := range store.Effective() {
			if !s.Read {
				unread[s.Message] = true
			}
		}
		lanes := map[string]string{}
		for _, w := range wus {
			lanes[w.ID] = w.Lane
		}
		for _, id := range plan.Waves[0] {
			msg := fmt.Sprintf("%s is ready to start (%s wave 1)", id, in.ID)
			if unread[msg] {
				continue // the same unread signal is already waiting
			}
			sig, err := delivery.SendSignal(ws.Root, c.Runtime(), delivery.SignalInput{
				Message: msg, Sender: "orchestrator", WUID: id, Lane: lanes[id]})
			if err != nil {
				return err
			}
			data.SignalsSent = append(data.SignalsSent, sig.ID)
		}
	}
	var text strings.Builder
	for k, wave := range plan.Waves {
		fmt.Fprintf(&text, "Wave %d: %s\n", k+1, strings.Join(wave, ", "))
	}
	if len(plan.Waves) == 0 {
		text.WriteString("No waves found.\n")
	}
	if len(plan.Skipped) > 0 {
		fmt.Fprintf(&text, "Skipped: %s\n", strings.Join(plan.Skipped, ", "))
	}
	if len(plan.Deferred) > 0 {
		items := make([]string, len(plan.Deferred))
		for i, d := range plan.Deferred {
			items[i] = fmt.Sprintf("%s (%s)", d.ID, d.Reason)
		}
		fmt.Fprintf(&text, "Deferred: %s\n", strings.Join(items, ", "))
	}
	if len(data.SignalsSent) > 0 {
		fmt.Fprintf(&text, "Signalled: %s\n", strings.Join(data.SignalsSent, ", "))
	}
	return c.Print(text.String(), data)
}

// orchestrateData is orchestrate:initiative's JSON data.
type orchestrateData struct {
	Initiative  string              `json:"initiative"`
	Waves       [][]string          `json:"waves"`
	Skipped     []string            `json:"skipped"`
	Deferred    []delivery.Deferral `json:"deferred"`
	SignalsSent []string            `json:"signals_sent"`
}
