package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
)

func mcpCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "mcp",
		Usage: "serve every tool over MCP on stdin/stdout (calls run non-interactively through the kernel)",
		Flags: []ucli.Flag{
			&ucli.StringSliceFlag{Name: "scope", Usage: "the client's scope read:PATH or write:PATH, repeatable (default: write on the workspace)"},
		},
		Action: func(c *ucli.Context) error {
			caller, err := callerFromFlags(c)
			if err != nil {
				return err
			}
			caller.Subject = "mcp:" + caller.Subject
			k, err := openKernel(c)
			if err != nil {
				return failed("%v", err)
			}
			defer k.Close()
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := mcp.ServeStdio(ctx, k, caller, os.Stdin, os.Stdout, mcp.WithImplementation("cmdbridge", commands.Version)); err != nil {
				return failed("mcp: %v", err)
			}
			return nil
		},
	}
}
