package state

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
	commands.Register(legacy.Command{Name: "gates", Domain: "state",
		New: newGatesApp, Main: convention.Main(newGatesApp)})
}

func newGatesApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "gates",
		Usage: "Run the configured gate commands in the checkout that contains the current directory",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "docs-only", Usage: "run only the docs_only gates"},
			&cli.StringSliceFlag{Name: "only", Usage: "run only this gate (repeatable)"},
		},
		RunsCode: true,
		Action:   gates,
	})
}

func gates(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.gates", "software_delivery.lanes", "software_delivery.git"); err != nil {
		return err
	}
	selected, err := delivery.SelectGates(ws.Config.Gates, c.Bool("docs-only"), c.Strings("only"))
	if err != nil {
		return err
	}
	wuID, lane := delivery.LaneOfBranch(c.Context(), ws, ws.Checkout)
	data := gatesData{Dir: ws.Rel(ws.Checkout), WUID: wuID, Lane: lane, Gates: []delivery.GateResult{}, Passed: true}
	if len(ws.Config.Gates) == 0 {
		c.Warn("no gates configured (software_delivery.gates.commands)")
		return c.Print("Gates passed\n", data)
	}
	rt := c.Runtime()
	results, err := delivery.RunGates(c.Context(), delivery.GateRun{Dir: ws.Checkout, Output: c.Stderr(),
		Now: rt.Now, TelemetryRoot: ws.Root, WUID: wuID, Lane: lane}, selected)
	if err != nil {
		return err
	}
	data.Gates = append(data.Gates, results...)
	var b strings.Builder
	failed := 0
	for _, r := range results {
		if r.Passed {
			fmt.Fprintf(&b, "PASS %s\n", r.Name)
		} else {
			failed++
			fmt.Fprintf(&b, "FAIL %s (exit %d)\n", r.Name, r.ExitCode)
		}
	}
	if failed > 0 {
		data.Passed = false
		fmt.Fprintf(&b, "Gates failed (%d of %d)\n", failed, len(results))
		return checkFailed(c, b.String(), data, tool.CodeGatesFailed, fmt.Sprintf("%d of %d gate(s) failed", failed, len(results)))
	}
	b.WriteString("Gates passed\n")
	return c.Print(b.String(), data)
}

// gatesData is gates' JSON data.
type gatesData struct {
	Dir    string                `json:"dir"`
	WUID   *string               `json:"wu_id"`
	Lane   *string               `json:"lane"`
	Gates  []delivery.GateResult `json:"gates"`
	Passed bool                  `json:"passed"`
}
