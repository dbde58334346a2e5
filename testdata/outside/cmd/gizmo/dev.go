//go:build cmdbridge_dev

package main

// The bridge's developer commands (parity, scaffold), only in a build with the tag:
// `go run -tags cmdbridge_dev ./cmd/gizmo bridge scaffold notes:list`. The gizmo users
// install is built without it and links none of their tooling.
import "github.com/cmdbridge/cmdbridge/surface/cli/devcli"

func init() { devcli.Enable() }
