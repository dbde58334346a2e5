package wu

import (
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
)

// The helpers below are shared by every wu:* command (part A and part B). They only glue
// convention.Call to package delivery: no domain rule lives here that delivery already has.

// openWorkspace opens the workspace and checks the keys every wu command reads.
func openWorkspace(c *convention.Call) (*delivery.Workspace, error) {
	return c.Workspace("software_delivery.directories", "software_delivery.lanes", "software_delivery.wu")
}

// acquireLock takes the lane lock for w with the runtime's owner (ops.AcquireLock), printing
// wuList is a repeatable WU flag (WU[]): a string slice whose every value must be a WU id.
// The check runs as the flag's action, so a bad value is a usage error (exit 2).
func wuList(name, usage string, required bool) *cli.StringSliceFlag {
	return convention.WUs(name, usage+" (WU-<n>, repeatable)", required)
}

// nonEmptyValue is a STRING flag value that must not be empty (spec "non-empty").
type nonEmptyValue struct{ value string }

func (v *nonEmptyValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("non-empty string")
	}
	v.value = s
	return nil
}

func (v *nonEmptyValue) String() string { return v.value }

// Expected names the accepted form for the usage message.
func (v *nonEmptyValue) Expected() string { return "non-empty string" }

// Constrain says in the schema what Set refuses: a blank value (legacy.Constrained).
func (v *nonEmptyValue) Constrain(s *jsonschema.Schema) { s.Pattern = delivery.NonBlankPattern }

// nonEmpty declares a required STRING flag that rejects an empty value as a usage error.
func nonEmpty(name, usage string) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Usage: usage, Required: true, Value: &nonEmptyValue{}}
}

// relDir renders a directory for output: root-relative with "/" separators, "." for the
