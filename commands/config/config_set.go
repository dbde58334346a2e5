package config

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "config:set",
		New: newConfigSetApp, Main: convention.Main(newConfigSetApp)})
}

func newConfigSetApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "config:set",
		Usage: "Set a workspace.yaml value by dotted key and commit it",
		Flags: []cli.Flag{
			convention.Keywords(&cli.StringFlag{Name: "key", Usage: "dotted path from the root of workspace.yaml", Required: true}, 0, 0, ops.ConfigKeyPattern),
			&cli.StringFlag{Name: "value", Usage: "new value: true/false and numbers are typed; lists get comma-separated items appended", Required: true},
		},
		Destructive: true,
		Action:      configSet,
	})
}

func configSet(c *convention.Call) error {
	in := ops.ConfigSetInput{Key: c.String("key"), Value: c.String("value")}
	if err := in.Check(); err != nil {
		return err
	}
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.ConfigSet(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	if c.JSON {
		return c.Print("", data)
	}
	fields, err := convention.Fields(data)
	if err != nil {
		return fmt.Errorf("render %s result: %w", c.Name, err)
	}
	var cm *convention.Commit
	if data.Commit != nil {
		cm = &convention.Commit{SHA: data.Commit.SHA, Subject: data.Commit.Subject, Pushed: data.Commit.Pushed, Branch: data.Commit.Branch}
	}
	return c.Print(notes.Headline+"\n"+fields+convention.CommitLines(cm), data)
}
