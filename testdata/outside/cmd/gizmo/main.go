// Command gizmo keeps plain-text notes.
package main

import (
	"fmt"
	"os"

	"example.com/gizmo/app"
	"github.com/cmdbridge/cmdbridge"
)

func main() {
	a := app.New()
	a.Commands = append(a.Commands, cmdbridge.Command(&cmdbridge.Config{LeadingDash: map[string][]string{"text:upper": {"WORD"}}, EffectsYAML: app.Effects})) // cmdbridge: the one added line
	if err := a.Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "gizmo:", err)
		os.Exit(1)
	}
}
