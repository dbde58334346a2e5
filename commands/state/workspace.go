package state

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
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

// eventWarnings prints the event log's skipped-line warnings (spec §1.7).
func eventWarnings(c *convention.Call, log *delivery.EventLog) {
	for _, w := range log.Warnings() {
		c.Warn("%s", w)
	}
}
