package cli

import (
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/surface/broker"
)

func init() { register(enrollCommand) }

// enrollCommand installs the enrollment token a control plane issued: the identity
// cmdbridge serve uses on a broker (docs/scale.md).
func enrollCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "enroll",
		Usage:     "install the enrollment token a control plane issued (subject <workspace_id> or <workspace_id>:phone:<device_id>); without TOKEN, print the enrollment",
		ArgsUsage: "[TOKEN]",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "name", Usage: "a human name for this workspace or device, announced to the control plane"},
		},
		Action: func(c *ucli.Context) error {
			st, err := stateOf(c)
			if err != nil {
				return failed("%v", err)
			}
			switch c.NArg() {
			case 0:
				e, ok, err := broker.LoadEnrollment(st.Root)
				if err != nil {
					return failed("%v", err)
				}
				if !ok {
					return failed("enroll: this workspace is not enrolled")
				}
				e.Token = "" // the token stays in the state directory
				return printJSON(c.App.Writer, e)
			case 1:
			default:
				return usageError("enroll: want at most one TOKEN argument")
			}
			if err := st.Ensure(); err != nil {
				return failed("%v", err)
			}
			e, err := broker.Enroll(st.Root, c.Args().First(), c.String("name"), time.Now())
			if err != nil {
				return usageError("%v", err)
			}
			e.Token = ""
			return printJSON(c.App.Writer, e)
		},
	}
}
