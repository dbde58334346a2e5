package state

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
)

// open resolves the workspace of the directory the command was started in (spec §1.1).
func open(c *convention.Call) (*delivery.Workspace, error) {
	cwd, err := c.Dir()
	if err != nil {
		return nil, err
	}
	return delivery.Open(c.Context(), cwd, c.LookupEnv)
}

// commit applies spec §2.4 to the root-relative paths a command wrote, printing push
// failures as warnings. It returns nil when nothing was committed.
func commit(c *convention.Call, ws *delivery.Workspace, subject string, paths ...string) (*convention.Commit, error) {
	cm, warnings, err := delivery.CommitArtifacts(c.Context(), ws, c.Runtime(), subject, paths)
	for _, w := range warnings {
		c.Warn("%s", w)
	}
	if err != nil || cm == nil {
		return nil, err
	}
	out := &convention.Commit{SHA: cm.SHA, Subject: cm.Subject, Pushed: cm.Pushed}
	if cm.Pushed {
		out.Branch = "HEAD"
	}
	return out, nil
}

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
