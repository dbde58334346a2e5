package config

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
)

// warnNotes prints and lists each of an operation's warnings (package ops), in order.
func warnNotes(c *convention.Call, notes ops.Notes) {
	for _, w := range notes.Warnings {
		c.Warn("%s", w)
	}
}
