package state

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
)

// checkFailed reports a check command's failure: in text mode its report still goes to
// stdout (results only), with --json the report is the failure envelope's data.
func checkFailed(c *convention.Call, text string, data any, code, message string) error {
	if !c.JSON {
		if err := c.Print(text, nil); err != nil {
			return err
		}
	}
	c.Partial(data)
	return c.Fail(code, message, nil)
}
