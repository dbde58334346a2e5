package initiative

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func init() {
	commands.Register(commands.Command{Name: "initiative:status", Domain: "initiative",
		New: newInitiativeStatusApp, Main: convention.Main(newInitiativeStatusApp)})
}

func newInitiativeStatusApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "initiative:status",
		Usage:    "Show an initiative with its progress, phases and WUs",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "id", Usage: "initiative id or slug (or the positional ID)"},
		},
		Args:   []convention.Arg{{Name: "id"}},
		Action: initiativeStatus,
	})
}

func initiativeStatus(c *convention.Call) error {
	ref := c.String("id")
	if ref == "" {
		ref = c.Arg("id")
	}
	if ref == "" {
		// The convention's rules cover flags only; flag-or-positional is checked here.
		return c.Fail(tool.CodeUsage, "missing required argument ID", nil)
	}
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	in, err := resolve(ws, ref)
	if err != nil {
		return err
	}
	all, err := readWUs(c, ws)
	if err != nil {
		return err
	}
	wus, _ := delivery.InitiativeWUs(in, all)
	d := initiativeStatusData{ID: in.ID, Slug: in.Slug, Title: in.Title, Description: in.Description,
		Status: delivery.DerivedStatus(in, wus), RawStatus: in.Status, Priority: priorityOf(in),
		Owner: nullable(in.Owner), Created: nullable(in.Created), TargetDate: nullable(in.TargetDate),
		Progress: progressOf(wus), Phases: []statusPhase{}, WUs: []statusWU{},
		SuccessMetrics: orEmpty(in.SuccessMetrics), Labels: orEmpty(in.Labels), RelatedPlan: nullable(in.RelatedPlan)}
	var text strings.Builder
	fmt.Fprintf(&text, "%s %s [%s]\n", d.ID, d.Title, d.Status)
	fmt.Fprintf(&text, "  progress: %d%% (%d/%d)\n", d.Progress.Percentage, d.Progress.Done, d.Progress.Total)
	phased := map[string]bool{}
	for _, p := range in.Phases {
		sp := statusPhase{ID: p.ID, Title: p.Title, Status: p.Status, WUs: []string{}}
		fmt.Fprintf(&text, "Phase %d: %s [%s]\n", p.ID, p.Title, p.Status)
		for _, w := range wus {
			if w.Phase == p.ID && w.Phase != 0 {
				sp.WUs = append(sp.WUs, w.ID)
				phased[w.ID] = true
				fmt.Fprintf(&text, "  - %s %s %s\n", w.ID, w.NormStatus(), w.Title)
			}
		}
		d.Phases = append(d.Phases, sp)
	}
	var unphased []string
	for _, w := range wus {
		sw := statusWU{ID: w.ID, Title: w.Title, Status: w.NormStatus()}
		if w.Phase != 0 {
			sw.Phase = &w.Phase
		}
		d.WUs = append(d.WUs, sw)
		if !phased[w.ID] {
			unphased = append(unphased, fmt.Sprintf("  - %s %s %s\n", w.ID, w.NormStatus(), w.Title))
		}
	}
	if len(unphased) > 0 {
		text.WriteString("Unphased\n" + strings.Join(unphased, ""))
	}
	return c.Print(text.String(), d)
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// initiativeStatusData is initiative:status's JSON data.
type initiativeStatusData struct {
	ID             string        `json:"id"`
	Slug           string        `json:"slug"`
	Title          string        `json:"title"`
	Description    string        `json:"description"`
	Status         string        `json:"status"`
	RawStatus      string        `json:"raw_status"`
	Priority       string        `json:"priority"`
	Owner          *string       `json:"owner"`
	Created        *string       `json:"created"`
	TargetDate     *string       `json:"target_date"`
	Progress       progress      `json:"progress"`
	Phases         []statusPhase `json:"phases"`
	WUs            []statusWU    `json:"wus"`
	SuccessMetrics []string      `json:"success_metrics"`
	Labels         []string      `json:"labels"`
	RelatedPlan    *string       `json:"related_plan"`
}

type statusPhase struct {
	ID     int      `json:"id"`
	Title  string   `json:"title"`
	Status string   `json:"status"`
	WUs    []string `json:"wus"`
}

type statusWU struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Status string `json:"status"`
	Phase  *int   `json:"phase"`
}
