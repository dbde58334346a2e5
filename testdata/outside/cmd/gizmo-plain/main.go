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
