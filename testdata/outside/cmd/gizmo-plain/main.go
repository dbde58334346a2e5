// Command gizmo-plain is gizmo without cmdbridge: gizmo's own main before the one added
// line. The startup and size benchmark (BenchmarkOutsideStartup) compares it with the
// adopted cmd/gizmo.
package main

import (
	"fmt"
	"os"

	"example.com/gizmo/app"
)

func main() {
	if err := app.New().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "gizmo:", err)
		os.Exit(1)
	}
}
