package cli

import (
	"fmt"
	"os"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

type enrollOptions struct {
	IO    ioStreams
	State func() (statedir.Dir, error)

	Token string
	Print bool // no TOKEN: print the enrollment
	Name  string
	Creds string
	// Control is the control plane's caller here (nil: --control-tools names none).
	ControlSubject                                         string
	ControlTools, ControlRead, ControlWrite, ControlEvents []string
}

// newEnrollCmd installs what a control plane issued — the enrollment token, and the
// NATS credentials it signed for the workspace — and records who the control plane is
// on this workspace: the caller its commands and token-less calls run as
// (docs/scale.md).
func newEnrollCmd(f *factory, runF func(*enrollOptions) error) *ucli.Command {
	opts := &enrollOptions{IO: f.IO}
	return &ucli.Command{
		Name:      "enroll",
		Usage:     "install the enrollment token a control plane issued (subject <workspace_id> or <workspace_id>:phone:<device_id>), its NATS credentials, and the control plane's scopes here; without TOKEN, print the enrollment",
		ArgsUsage: "[TOKEN]",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "name", Usage: "a human name for this workspace or device, announced to the control plane", Destination: &opts.Name},
			&ucli.StringFlag{Name: "creds", Usage: "the NATS credentials file 'conductor issue --creds' wrote for this workspace; installed in the state directory, where serve --nats finds it", Destination: &opts.Creds},
			&ucli.StringFlag{Name: "control-subject", Usage: "the control plane's subject here: the from of its commands, the caller of its calls", Value: "control", Destination: &opts.ControlSubject},
			&ucli.StringSliceFlag{Name: "control-tools", Usage: "tool globs the control plane may call without a token (none: it sends no commands and calls only with a token minted here)"},
			&ucli.StringSliceFlag{Name: "control-read", Usage: "path scopes it may read"},
			&ucli.StringSliceFlag{Name: "control-write", Usage: "path scopes it may write"},
			&ucli.StringSliceFlag{Name: "control-events", Usage: "channels its commands may address (default: this workspace's id)"},
		},
		Action: func(c *ucli.Context) error {
			opts.State = stateDirOf(c)
			if c.NArg() > 1 {
				// The state directory is found first, as it always was: a missing
				// workspace is reported before a misused command line.
				if _, err := opts.State(); err != nil {
					return fmt.Errorf("enroll: %w", err)
				}
				return usageError("enroll: want at most one TOKEN argument")
			}
			opts.Token, opts.Print = c.Args().First(), c.NArg() == 0
			opts.ControlTools, opts.ControlRead = c.StringSlice("control-tools"), c.StringSlice("control-read")
			opts.ControlWrite, opts.ControlEvents = c.StringSlice("control-write"), c.StringSlice("control-events")
			if runF != nil {
				return runF(opts)
			}
			return runEnroll(opts)
		},
	}
}

func runEnroll(opts *enrollOptions) error {
	st, err := opts.State()
	if err != nil {
		return fmt.Errorf("enroll: %w", err)
	}
	if opts.Print {
		e, ok, err := broker.LoadEnrollment(st.Root)
		if err != nil {
			return fmt.Errorf("enroll: %w", err)
		}
		if !ok {
			return fmt.Errorf("enroll: this workspace is not enrolled")
		}
		e.Token = "" // the token stays in the state directory
		return printJSON(opts.IO.Out, e)
	}
	if err := st.Ensure(); err != nil {
		return fmt.Errorf("enroll: %w", err)
	}
	claims, err := token.Unverified(opts.Token)
	if err != nil {
		return usageError("enroll: %v", err)
	}
	ws := broker.WorkspaceOf(claims.Subject)
	var control *broker.ControlCaller
	if len(opts.ControlTools) > 0 {
		control = &broker.ControlCaller{Subject: opts.ControlSubject, Tools: opts.ControlTools,
			Read: opts.ControlRead, Write: opts.ControlWrite, Events: opts.ControlEvents}
		if len(control.Events) == 0 {
			control.Events = []string{ws}
		}
	}
	e, err := broker.Enroll(st.Root, opts.Token, opts.Name, control, time.Now())
	if err != nil {
		return usageError("%v", err)
	}
	if p := opts.Creds; p != "" {
		creds, err := os.ReadFile(p)
		if err != nil {
			return usageError("enroll --creds: %v", err)
		}
		if err := broker.InstallCreds(st.Root, ws, creds); err != nil {
			return usageError("enroll --creds: %v", err)
		}
	}
	e.Token = ""
	return printJSON(opts.IO.Out, e)
}
