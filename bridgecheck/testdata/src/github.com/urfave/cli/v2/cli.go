// Package cli is a minimal stand-in for github.com/urfave/cli/v2: only the names
// bridgecheck looks at, so the analysistest packages type-check in GOPATH mode.
package cli

import (
	"context"
	"io"
	"os"
)

type Context struct {
	Context context.Context
	App     *App
}

type ActionFunc func(*Context) error

type Flag interface {
	Names() []string
	IsSet() bool
}

type BoolFlag struct {
	Name  string
	Value bool
}

func (f *BoolFlag) Names() []string { return []string{f.Name} }
func (f *BoolFlag) IsSet() bool     { return false }

type StringSliceFlag struct{ Name string }

func (f *StringSliceFlag) Names() []string { return []string{f.Name} }
func (f *StringSliceFlag) IsSet() bool     { return false }

type Command struct {
	Name   string
	Action ActionFunc
	Before ActionFunc
	After  ActionFunc
}

type App struct {
	Name      string
	Flags     []Flag
	Commands  []*Command
	Action    ActionFunc
	Before    ActionFunc
	After     ActionFunc
	Writer    io.Writer
	ErrWriter io.Writer
}

func (a *App) RunContext(ctx context.Context, args []string) error { return nil }

var OsExiter = os.Exit

type exitError struct{ code int }

func (e exitError) Error() string { return "exit" }

func Exit(msg string, code int) error { return exitError{code} }

func ShowAppHelp(c *Context) error                            { return nil }
func ShowAppHelpAndExit(c *Context, code int)                 { os.Exit(code) }
func ShowCommandHelpAndExit(c *Context, cmd string, code int) { os.Exit(code) }
func ShowSubcommandHelpAndExit(c *Context, code int)          { os.Exit(code) }
