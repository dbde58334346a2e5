package wu

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
	commands.Register(legacy.Command{Name: "wu:validate",
		New: newWUValidateApp, Main: convention.Main(newWUValidateApp)})
}

func newWUValidateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "wu:validate",
		Usage:    "Validate one WU spec",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "WU to validate", true),
			&cli.BoolFlag{Name: "no-strict", Usage: "structural checks only"},
		},
		Action: wuValidate,
	})
}

func wuValidate(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	strict := !c.Bool("no-strict")
	data := wuValidateData{ID: w.ID, Strict: strict, Errors: delivery.ValidateStructure(w), Warnings: []string{}}
	if strict {
		data.Errors = delivery.ValidateStrict(w, ws.Config.MinDescriptionLength)
	}
	if data.Errors == nil {
		data.Errors = []string{}
	}
	// With no lanes defined every lane is implicitly allowed (spec §1.2): no warning then.
	if _, ok := ws.Config.Lane(w.Lane); !ok && w.Lane != "" && len(ws.Config.Lanes) > 0 {
		data.Warnings = append(data.Warnings, fmt.Sprintf("lane %q is not defined in workspace.yaml", w.Lane))
	}
	for _, dep := range w.BlockedBy {
		if delivery.ValidWUID(dep) && !exists(ws, ws.WUPath(dep)) {
			data.Warnings = append(data.Warnings, fmt.Sprintf("blocked_by %s does not exist", dep))
		}
	}
	data.Valid = len(data.Errors) == 0
	var text strings.Builder
	if data.Valid {
		fmt.Fprintf(&text, "%s: valid\n", w.ID)
	} else {
		fmt.Fprintf(&text, "%s: invalid\n", w.ID)
	}
	for _, e := range data.Errors {
		fmt.Fprintf(&text, "  error: %s\n", e)
	}
	for _, wn := range data.Warnings {
		fmt.Fprintf(&text, "  warning: %s\n", wn)
	}
	if data.Valid {
		return c.Print(text.String(), data)
	}
	// A check command reports what it found on stdout even when it fails.
	if !c.JSON {
		if err := c.Print(text.String(), nil); err != nil {
			return err
		}
	}
	c.Partial(data)
	return c.Failf(tool.CodeCheckFailed, "%s is invalid (%d error(s))", w.ID, len(data.Errors))
}

// wuValidateData is wu:validate's JSON data.
type wuValidateData struct {
	ID       string   `json:"id"`
	Valid    bool     `json:"valid"`
	Strict   bool     `json:"strict"`
	Errors   []string `json:"errors"`
	Warnings []string `json:"warnings"`
}
