// Package cli is a minimal stand-in for github.com/urfave/cli/v2: only the names the
// analyzer looks at.
package cli

type Context struct{ App *App }

type ActionFunc func(*Context) error

type Command struct {
	Name   string
	Action ActionFunc
}

type App struct {
	Name     string
	Commands []*Command
	Action   ActionFunc
}

func (a *App) Run(args []string) error { return nil }
