package state

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
)

// The helpers below are the legacy shell around package ops for the state commands: they
// replay an operation's notes and print its result as the command always has.

// warnNotes prints each of the operation's warnings, in order.
func warnNotes(c *convention.Call, notes ops.Notes) {
	for _, w := range notes.Warnings {
		c.Warn("%s", w)
	}
}

// conventionCommit converts an operation's commit for rule R4 (nil stays nil).
func conventionCommit(cm *ops.Commit) *convention.Commit {
	if cm == nil {
		return nil
	}
	return &convention.Commit{SHA: cm.SHA, Subject: cm.Subject, Pushed: cm.Pushed, Branch: cm.Branch}
}
