// Package cli is a minimal stand-in for github.com/urfave/cli/v2: only the names the
// analyzer looks at.
package cli

import "context"

type Context struct{ App *App }

type ActionFunc func(*Context) error

type Flag interface {
	Names() []string
	IsSet() bool
}

type BoolFlag struct{ Name string }

func (f *BoolFlag) Names() []string { return []string{f.Name} }
func (f *BoolFlag) IsSet() bool     { return false }

type StringSliceFlag struct{ Name string }

func (f *StringSliceFlag) Names() []string { return []string{f.Name} }
func (f *StringSliceFlag) IsSet() bool     { return false }

type App struct {
	Name   string
	Flags  []Flag
	Action ActionFunc
}

func (a *App) RunContext(ctx context.Context, args []string) error { return nil }
