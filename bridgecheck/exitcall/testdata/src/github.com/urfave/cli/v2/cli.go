// Package cli is a minimal stand-in for github.com/urfave/cli/v2: only the names the
// analyzer and its fixes use.
package cli

import (
	"context"
	"os"
)

type Context struct{ App *App }

type ActionFunc func(*Context) error

type App struct {
	Name   string
	Action ActionFunc
}

func (a *App) RunContext(ctx context.Context, args []string) error { return nil }

var OsExiter = os.Exit

type exitError struct{ code int }

func (e exitError) Error() string { return "exit" }

func Exit(msg string, code int) error { return exitError{code} }

func ShowAppHelp(c *Context) error                 { return nil }
func ShowCommandHelp(c *Context, cmd string) error { return nil }
func ShowAppHelpAndExit(c *Context, code int)      { _ = ShowAppHelp(c); os.Exit(code) }
func ShowCommandHelpAndExit(c *Context, cmd string, code int) {
	_ = ShowCommandHelp(c, cmd)
	os.Exit(code)
}
