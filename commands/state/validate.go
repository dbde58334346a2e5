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
	commands.Register(legacy.Command{Name: "validate", Domain: "state",
		New: newValidateApp, Main: convention.Main(newValidateApp)})
}

func newValidateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "validate",
		Usage: "Validate every WU (or one) with its cross-references: stamps, initiatives, dependencies, lanes",
		Flags: []cli.Flag{
			convention.WU("id", "validate only this WU", false),
			&cli.BoolFlag{Name: "strict", Usage: "warnings fail too"},
			&cli.BoolFlag{Name: "done-only", Usage: "validate only done WUs"},
		},
		ReadOnly:   true,
		Idempotent: true,
		Action:     validate,
	})
}

func validate(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.directories", "software_delivery.lanes", "software_delivery.wu"); err != nil {
		return err
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return err
	}
	only := c.Value("id")
	if only != "" && !hasFile(files, only) {
		return c.Failf(tool.CodeNotFound, "%s not found (%s)", only, ws.WUPath(only))
	}
	rep, err := delivery.ValidateWUs(ws, files, only, c.Bool("done-only"))
	if err != nil {
		return err
	}
	data := validateData{Checked: rep.Checked, Errors: rep.Errors(), Warnings: rep.Warnings()}
	var text strings.Builder
	for _, f := range rep.Findings {
		kind := "warning"
		if f.Error {
			kind = "error"
		}
		fmt.Fprintf(&text, "%s %s: %s\n", f.ID, kind, f.Message)
	}
	failed := len(data.Errors) > 0 || (c.Bool("strict") && len(data.Warnings) > 0)
	data.Passed = !failed
	fmt.Fprintf(&text, "Validated %d WU(s): %d error(s), %d warning(s)\n", data.Checked, len(data.Errors), len(data.Warnings))
	if failed {
		msg := fmt.Sprintf("validation failed: %d error(s), %d warning(s)", len(data.Errors), len(data.Warnings))
		return checkFailed(c, text.String(), data, tool.CodeCheckFailed, msg)
	}
	return c.Print(text.String(), data)
}

func hasFile(files []delivery.WUFile, id string) bool {
	for _, f := range files {
		if f.ID == id {
			return true
		}
	}
	return false
}

// validateData is validate's JSON data.
type validateData struct {
	Checked  int                          `json:"checked"`
	Errors   []delivery.ValidationFinding `json:"errors"`
	Warnings []delivery.ValidationFinding `json:"warnings"`
	Passed   bool                         `json:"passed"`
}
