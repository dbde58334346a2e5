package commands_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func cmd(name string) legacy.Command {
	return legacy.Command{Name: name, Domain: "d", New: func() *cli.App { return &cli.App{} }, Main: func(context.Context) {}}
}

func TestRegisterPanicsOnDuplicate(t *testing.T) {
	name := "test:register-probe"
	commands.Register(cmd(name))
	_, ok := commands.Lookup(name)
	assert.True(t, ok)
	assert.Panics(t, func() { commands.Register(cmd(name)) })
}
