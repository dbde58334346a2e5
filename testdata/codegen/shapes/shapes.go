// Package shapes registers one command in each shape the legacy registry accepts, for
// the scaffold's locator: a literal handed to a method, to a local helper, through a
// variable, and in a table.
package shapes

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Registry holds the shapes' commands.
var Registry = legacy.NewRegistry()

const domain = "shape"

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// add is the local helper some programs register through.
func add(c legacy.Command) { must(Registry.Add(c)) }

var viaVar = legacy.Command{Name: "shape:var", Domain: domain, New: newVarApp, Main: run}

func init() {
	must(Registry.Add(legacy.Command{Name: "shape:" + "direct", Domain: domain, New: newDirectApp, Main: run}))
	add(legacy.Command{Name: "shape:helper", Domain: domain, New: newHelperApp, Main: run})
	add(viaVar)
	for _, c := range []legacy.Command{{Name: "shape:table", Domain: domain, New: newTableApp, Main: run}} {
		must(Registry.Add(c))
	}
	computed := "shape:" + string(rune('a'))
	must(Registry.Add(legacy.Command{Name: computed, Domain: domain, New: newDirectApp, Main: run}))
}

func run(context.Context) {}

func newDirectApp() *cli.App { return &cli.App{Name: "direct"} }
func newHelperApp() *cli.App { return &cli.App{Name: "helper"} }
func newVarApp() *cli.App    { return &cli.App{Name: "var"} }
func newTableApp() *cli.App  { return &cli.App{Name: "table"} }
