package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:prep",
		New: newWUPrepApp, Main: convention.Main(newWUPrepApp)})
}

func newWUPrepApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:prep",
		Usage: "Run the gates for an in-progress WU in its worktree, before wu:done",
		Flags: []cli.Flag{
			convention.WU("id", "WU whose gates run", true),
			&cli.BoolFlag{Name: "docs-only", Usage: "run only the docs_only gates"},
		},
		RunsCode: true,
		Action:   wuPrep,
	})
}

func wuPrep(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	if w.NormStatus() != delivery.StatusInProgress {
		return delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: wu:prep needs an in_progress WU", w.ID, w.NormStatus())
	}
	run, err := runWUGates(c, ws, w, c.Bool("docs-only"))
	if err != nil {
		return err
	}
	data := wuPrepData{ID: w.ID, Dir: run.Dir, Gates: run.Results, Passed: run.Failed == 0}
	text := gateLines(run.Results)
	if data.Passed {
		next := "delivery wu:done --id " + w.ID
		data.Next = &next
		return c.Print(text+"Next: "+next+"\n", data)
	}
	if !c.JSON {
		if err := c.Print(text, nil); err != nil {
			return err
		}
	}
	c.Partial(data)
	return gatesFailed(run)
}

// wuPrepData is wu:prep's JSON data.
type wuPrepData struct {
	ID     string                `json:"id"`
	Dir    string                `json:"dir"`
	Gates  []delivery.GateResult `json:"gates"`
	Passed bool                  `json:"passed"`
	Next   *string               `json:"next"`
}
