// Command gizmo-tools serves gizmo's commands as governed tools without changing gizmo:
// cmdbridge's standalone entry point. The subprocess lane runs the installed gizmo.
package main

import (
	"os"

	"example.com/gizmo/app"
	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/host"
	"github.com/cmdbridge/cmdbridge/surface/cli/devcli"
)

func main() {
	os.Exit(host.Main(app.New, &host.Config{
		Config: cmdbridge.Config{
			// text upper prints its words, whatever they begin with.
			LeadingDash: map[string][]string{"text:upper": {"WORD"}},
			// What each command does (app/effects.yaml).
			EffectsYAML: app.Effects,
		},
		// Our own reading: these never leave the process themselves (text count does).
		InProcess: []string{"notes:{list,show,export,rm}", "text:upper", "version"},
		// A tools binary: parity, scaffold and status too (gizmo itself stays light).
		Subcommands: devcli.Commands(),
	}))
}
