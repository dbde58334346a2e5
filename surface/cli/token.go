package cli

import (
	"fmt"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// tokenCommand mints, verifies and rotates the bearer tokens of `cmdbridge serve`.
func tokenCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "token",
		Usage: "mint, verify and rotate bearer tokens for cmdbridge serve (key: token.key in the workspace's state directory, .git/cmdbridge in a git work tree)",
		Subcommands: []*ucli.Command{
			{
				Name:  "mint",
				Usage: "print a signed bearer token on one line",
				Flags: []ucli.Flag{
					&ucli.StringFlag{Name: "subject", Usage: "who calls: any name, or <workspace_id> / <workspace_id>:phone:<device_id>", Required: true},
					&ucli.StringSliceFlag{Name: "tools", Usage: "tool globs the token may see (doublestar over canonical names: 'notes:*', '*'), repeatable or comma-separated; required: --tools '' mints a token that sees no tool", Required: true},
					&ucli.StringSliceFlag{Name: "read", Usage: "read scope path (relative to the workspace or absolute), repeatable"},
					&ucli.StringSliceFlag{Name: "write", Usage: "write scope path (also grants reading), repeatable"},
					&ucli.StringSliceFlag{Name: "events", Usage: "subject globs whose events the token may watch and acknowledge besides its own ('*' and '*:**' for a control plane), repeatable"},
					&ucli.DurationFlag{Name: "ttl", Usage: "lifetime of the token", Value: 24 * time.Hour},
				},
				Action: func(c *ucli.Context) error {
					st, err := stateOf(c)
					if err != nil {
						return fmt.Errorf("token mint: %w", err)
					}
					key, err := token.LoadKey(st.Root)
					if err != nil {
						return fmt.Errorf("token mint: %w", err)
					}
					tok, _, err := token.Mint(key, token.MintOptions{
						Subject: c.String("subject"), Tools: splitList(c.StringSlice("tools")),
						Read: c.StringSlice("read"), Write: c.StringSlice("write"), Events: splitList(c.StringSlice("events")),
						TTL: c.Duration("ttl"),
					})
					if err != nil {
						return usageError("%v", err)
					}
					_, err = c.App.Writer.Write([]byte(tok + "\n"))
					return err
				},
			},
			{
				Name:      "verify",
				Usage:     "check a token against the workspace key and print its claims",
				ArgsUsage: "TOKEN",
				Action: func(c *ucli.Context) error {
					if c.NArg() != 1 {
						return usageError("token verify: want one TOKEN argument")
					}
					st, err := stateOf(c)
					if err != nil {
						return fmt.Errorf("token verify: %w", err)
					}
					key, err := token.LoadKey(st.Root)
					if err != nil {
						return fmt.Errorf("token verify: %w", err)
					}
					claims, err := token.Verify(key, c.Args().First(), time.Now())
					if err != nil {
						return fmt.Errorf("token verify: %w", err)
					}
					return printJSON(c.App.Writer, claims)
				},
			},
			{
				Name:  "rotate",
				Usage: "replace the workspace key: every token minted before stops verifying (restart cmdbridge serve)",
				Action: func(c *ucli.Context) error {
					st, err := stateOf(c)
					if err != nil {
						return fmt.Errorf("token rotate: %w", err)
					}
					if err := token.Rotate(st.Root); err != nil {
						return fmt.Errorf("token rotate: %w", err)
					}
					return nil
				},
			},
		},
	}
}

// splitList accepts both repeated flags and comma-separated values.
func splitList(in []string) []string {
	var out []string
	for _, s := range in {
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}
