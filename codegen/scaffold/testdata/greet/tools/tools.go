// Package tools holds the greet program's native tools: the registry the scaffold is
// told to register into (Register, a function, where gizmo's is a variable).
package tools

import "github.com/cmdbridge/cmdbridge/tool/native"

// Default is where the program's native tools register.
var Default = native.NewRegistry()

// Register adds a native tool to Default.
func Register(t native.Tool) {
	if err := Default.Add(t); err != nil {
		panic(err)
	}
}
