// Package a is not a native tool package (its path does not match -native): nothing
// here is reported, neither its own globals nor the shared functions it calls.
package a

import (
	"os"

	"example.com/helper"
)

func Handler() string { return os.Getenv("HOME") + helper.Dir() }
