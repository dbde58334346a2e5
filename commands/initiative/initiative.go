package initiative

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
)

// The helpers below are the legacy shell around the initiative writers of package ops:
// they replay an operation's notes and print its result exactly as convention.Call.Result
// would.

// warnNotes prints and lists each of the operation's warnings, in order.
func warnNotes(c *convention.Call, notes ops.Notes) {
	for _, w := range notes.Warnings {
		c.Warn("%s", w)
	}
}

// opsResult is convention.Call.Result for an operation's data: the headline (R1), the
// scalar fields (R2) and the commit (R4), or the envelope with --json.
func opsResult(c *convention.Call, headline string, data any, cm *ops.Commit) error {
	if c.JSON {
		return c.Print("", data)
	}
	fields, err := convention.Fields(data)
	if err != nil {
		return fmt.Errorf("render %s result: %w", c.Name, err)
	}
	text := ""
	if headline != "" {
		text = headline + "\n"
	}
	return c.Print(text+fields+convention.CommitLines(conventionCommit(cm)), data)
}

// conventionCommit converts an operation's commit for rule R4 (nil stays nil).
func conventionCommit(cm *ops.Commit) *convention.Commit {
	if cm == nil {
		return nil
	}
	return &convention.Commit{SHA: cm.SHA, Subject: cm.Subject, Pushed: cm.Pushed, Branch: cm.Branch}
}

// flagPtr is a string flag's value when it was given, nil otherwise (the operations tell
// an absent flag from an empty one).
func flagPtr(c *convention.Call, flag string) *string {
	if !c.IsSet(flag) {
		return nil
	}
	v := c.String(flag)
	return &v
}

// linkResult is what linkWUs changed (ops.LinkResult).
type linkResult struct {
	linked, already, paths []string
}

// linkWUs links WUs to an initiative on both sides, as initiative:add-wu does
// (ops.LinkWUs); initiative:bulk-assign links each initiative's WUs with it.
func linkWUs(ws *delivery.Workspace, in *delivery.Initiative, ids []string, phase int) (linkResult, error) {
	res, err := ops.LinkWUs(ws, in, ids, phase)
	return linkResult{linked: res.Linked, already: res.Already, paths: res.Paths}, err
}

// appendItems appends string items to the list under key, as initiative:edit does
// (ops.AppendItems); plan:link adds a WU's spec_refs with it.
func appendItems(m *yaml.Node, key string, items []string, dedupe bool) bool {
	return ops.AppendItems(m, key, items, dedupe)
}
