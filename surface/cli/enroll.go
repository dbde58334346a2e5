package cli

import (
	"fmt"
	"os"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// enrollCommand installs what a control plane issued — the enrollment token, and the
// NATS credentials it signed for the workspace — and records who the control plane is
// on this workspace: the caller its commands and token-less calls run as
// (docs/scale.md).
func enrollCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "enroll",
		Usage:     "install the enrollment token a control plane issued (subject <workspace_id> or <workspace_id>:phone:<device_id>), its NATS credentials, and the control plane's scopes here; without TOKEN, print the enrollment",
		ArgsUsage: "[TOKEN]",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "name", Usage: "a human name for this workspace or device, announced to the control plane"},
			&ucli.StringFlag{Name: "creds", Usage: "the NATS credentials file 'conductor issue --creds' wrote for this workspace; installed in the state directory, where serve --nats finds it"},
			&ucli.StringFlag{Name: "control-subject", Usage: "the control plane's subject here: the from of its commands, the caller of its calls", Value: "control"},
			&ucli.StringSliceFlag{Name: "control-tools", Usage: "tool globs the control plane may call without a token (none: it sends no commands and calls only with a token minted here)"},
			&ucli.StringSliceFlag{Name: "control-read", Usage: "path scopes it may read"},
			&ucli.StringSliceFlag{Name: "control-write", Usage: "path scopes it may write"},
			&ucli.StringSliceFlag{Name: "control-events", Usage: "channels its commands may address (default: this workspace's id)"},
		},
		Action: func(c *ucli.Context) error {
			st, err := stateOf(c)
			if err != nil {
				return fmt.Errorf("enroll: %w", err)
			}
			switch c.NArg() {
			case 0:
				e, ok, err := broker.LoadEnrollment(st.Root)
				if err != nil {
					return fmt.Errorf("enroll: %w", err)
				}
				if !ok {
					return fmt.Errorf("enroll: this workspace is not enrolled")
				}
				e.Token = "" // the token stays in the state directory
				return printJSON(c.App.Writer, e)
			case 1:
			default:
				return usageError("enroll: want at most one TOKEN argument")
			}
			if err := st.Ensure(); err != nil {
				return fmt.Errorf("enroll: %w", err)
			}
			claims, err := token.Unverified(c.Args().First())
			if err != nil {
				return usageError("enroll: %v", err)
			}
			ws := broker.WorkspaceOf(claims.Subject)
			var control *broker.ControlCaller
			if tools := c.StringSlice("control-tools"); len(tools) > 0 {
				control = &broker.ControlCaller{Subject: c.String("control-subject"), Tools: tools,
					Read: c.StringSlice("control-read"), Write: c.StringSlice("control-write"), Events: c.StringSlice("control-events")}
				if len(control.Events) == 0 {
					control.Events = []string{ws}
				}
			}
			e, err := broker.Enroll(st.Root, c.Args().First(), c.String("name"), control, time.Now())
			if err != nil {
				return usageError("%v", err)
			}
			if p := c.String("creds"); p != "" {
				creds, err := os.ReadFile(p)
				if err != nil {
					return usageError("enroll --creds: %v", err)
				}
				if err := broker.InstallCreds(st.Root, ws, creds); err != nil {
					return usageError("enroll --creds: %v", err)
				}
			}

			e.Token = ""
			return printJSON(c.App.Writer, e)
		},
	}
}
