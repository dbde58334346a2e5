package initiative

import (
	"fmt"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "orchestrate:init-status", Domain: "initiative",
		New: newOrchestrateInitStatusApp, Main: convention.Main(newOrchestrateInitStatusApp)})
}

func newOrchestrateInitStatusApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "orchestrate:init-status",
		Usage:    "Show an initiative's progress and its WUs by phase",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug", Required: true},
		},
		Action: orchestrateInitStatus,
	})
}

func orchestrateInitStatus(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	text, data, err := initStatus(c, ws, c.String("initiative"))
	if err != nil {
		return err
	}
	return c.Print(text, data)
}

// initStatus builds orchestrate:init-status's text and data (orchestrate:initiative
// --progress prints the same).
func initStatus(c *convention.Call, ws *delivery.Workspace, ref string) (string, initStatusData, error) {
	in, err := resolve(ws, ref)
	if err != nil {
		return "", initStatusData{}, err
	}
	all, err := readWUs(c, ws)
	if err != nil {
		return "", initStatusData{}, err
	}
	wus, _ := delivery.InitiativeWUs(in, all)
	// Sorted by phase, then id; WUs without a phase come last.
	sort.SliceStable(wus, func(i, j int) bool {
		pi, pj := wus[i].Phase, wus[j].Phase
		if pi == 0 || pj == 0 {
			return pi != 0 && pj == 0
		}
		return pi < pj
	})
	d := initStatusData{ID: in.ID, Title: in.Title, Progress: progressOf(wus), WUs: []initStatusWU{}}
	var text strings.Builder
	fmt.Fprintf(&text, "%s %s: %d/%d done (%d%%)\n", in.ID, in.Title, d.Progress.Done, d.Progress.Total, d.Progress.Percentage)
	for _, w := range wus {
		row := initStatusWU{ID: w.ID, Title: w.Title, Lane: w.Lane, Status: w.NormStatus()}
		if w.Phase != 0 {
			row.Phase = &w.Phase
		}
		d.WUs = append(d.WUs, row)
		fmt.Fprintf(&text, "%s  %s  %s  %s\n", row.Status, row.ID, row.Lane, row.Title)
	}
	return text.String(), d, nil
}

// initStatusData is orchestrate:init-status's JSON data.
type initStatusData struct {
	ID       string         `json:"id"`
	Title    string         `json:"title"`
	Progress progress       `json:"progress"`
	WUs      []initStatusWU `json:"wus"`
}

type initStatusWU struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Lane   string `json:"lane"`
	Status string `json:"status"`
	Phase  *int   `json:"phase"`
}
