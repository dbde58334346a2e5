// Package tools holds gizmo's native tools: the registry the scaffold discovers.
package tools

import "github.com/cmdbridge/cmdbridge/tool/native"

// Registry is where gizmo's native tools register.
var Registry = native.NewRegistry()
