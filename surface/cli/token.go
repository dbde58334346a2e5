package cli

import (
	"fmt"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// newTokenCmd mints, verifies and rotates the bearer tokens of `cmdbridge serve`.
func newTokenCmd(f *factory) *ucli.Command {
	return &ucli.Command{
		Name:        "token",
		Usage:       "mint, verify and rotate bearer tokens for cmdbridge serve (key: token.key in the workspace's state directory, .git/cmdbridge in a git work tree)",
		Subcommands: []*ucli.Command{newTokenMintCmd(f, nil), newTokenVerifyCmd(f, nil), newTokenRotateCmd(f, nil)},
	}
}

type tokenMintOptions struct {
	IO    ioStreams
	State func() (statedir.Dir, error)

	Subject                    string
	Tools, Read, Write, Events []string
	TTL                        time.Duration
}

func newTokenMintCmd(f *factory, runF func(*tokenMintOptions) error) *ucli.Command {
	opts := &tokenMintOptions{IO: f.IO}
	return &ucli.Command{
		Name:  "mint",
		Usage: "print a signed bearer token on one line",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "subject", Usage: "who calls: any name, or <workspace_id> / <workspace_id>:phone:<device_id>", Required: true, Destination: &opts.Subject},
			&ucli.StringSliceFlag{Name: "tools", Usage: "tool globs the token may see (doublestar over canonical names: 'notes:*', '*'), repeatable or comma-separated; required: --tools '' mints a token that sees no tool", Required: true},
			&ucli.StringSliceFlag{Name: "read", Usage: "read scope path (relative to the workspace or absolute), repeatable"},
			&ucli.StringSliceFlag{Name: "write", Usage: "write scope path (also grants reading), repeatable"},
			&ucli.StringSliceFlag{Name: "events", Usage: "subject globs whose events the token may watch and acknowledge besides its own ('*' and '*:**' for a control plane), repeatable"},
			&ucli.DurationFlag{Name: "ttl", Usage: "lifetime of the token", Value: 24 * time.Hour, Destination: &opts.TTL},
		},
		Action: func(c *ucli.Context) error {
			opts.Tools, opts.Events = splitList(c.StringSlice("tools")), splitList(c.StringSlice("events"))
			opts.Read, opts.Write, opts.State = c.StringSlice("read"), c.StringSlice("write"), stateDirOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runTokenMint(opts)
		},
	}
}

func runTokenMint(opts *tokenMintOptions) error {
	key, err := workspaceKey(opts.State)
	if err != nil {
		return fmt.Errorf("token mint: %w", err)
	}
	tok, _, err := token.Mint(key, token.MintOptions{Subject: opts.Subject, Tools: opts.Tools,
		Read: opts.Read, Write: opts.Write, Events: opts.Events, TTL: opts.TTL})
	if err != nil {
		return usageError("%v", err)
	}
	_, err = opts.IO.Out.Write([]byte(tok + "\n"))
	return err
}

// workspaceKey is the token key in the workspace's state directory (created on first use).
func workspaceKey(state func() (statedir.Dir, error)) ([]byte, error) {
	st, err := state()
	if err != nil {
		return nil, err
	}
	return token.LoadKey(st.Root)
}

type tokenVerifyOptions struct {
	IO    ioStreams
	State func() (statedir.Dir, error)
	Token string
}

func newTokenVerifyCmd(f *factory, runF func(*tokenVerifyOptions) error) *ucli.Command {
	opts := &tokenVerifyOptions{IO: f.IO}
	return &ucli.Command{
		Name:      "verify",
		Usage:     "check a token against the workspace key and print its claims",
		ArgsUsage: "TOKEN",
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return usageError("token verify: want one TOKEN argument")
			}
			opts.Token, opts.State = c.Args().First(), stateDirOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runTokenVerify(opts)
		},
	}
}

func runTokenVerify(opts *tokenVerifyOptions) error {
	key, err := workspaceKey(opts.State)
	if err != nil {
		return fmt.Errorf("token verify: %w", err)
	}
	claims, err := token.Verify(key, opts.Token, time.Now())
	if err != nil {
		return fmt.Errorf("token verify: %w", err)
	}
	return printJSON(opts.IO.Out, claims)
}

type tokenRotateOptions struct {
	State func() (statedir.Dir, error)
}

func newTokenRotateCmd(_ *factory, runF func(*tokenRotateOptions) error) *ucli.Command {
	opts := &tokenRotateOptions{}
	return &ucli.Command{
		Name:  "rotate",
		Usage: "replace the workspace key: every token minted before stops verifying (restart cmdbridge serve)",
		Action: func(c *ucli.Context) error {
			opts.State = stateDirOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runTokenRotate(opts)
		},
	}
}

func runTokenRotate(opts *tokenRotateOptions) error {
	st, err := opts.State()
	if err != nil {
		return fmt.Errorf("token rotate: %w", err)
	}
	if err := token.Rotate(st.Root); err != nil {
		return fmt.Errorf("token rotate: %w", err)
	}
	return nil
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
