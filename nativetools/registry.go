package nativetools

import (
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// Default is the registry the corpus's domain packages register into.
var Default = native.NewRegistry()

// Register adds t to Default and panics on error; domain packages call it from init.
func Register(t native.Tool) {
	if err := Default.Add(t); err != nil {
		panic(err)
	}
}
