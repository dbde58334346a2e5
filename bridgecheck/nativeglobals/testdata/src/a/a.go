// Package a is not a native tool package (its path does not match -native): nothing
// here is reported.
package a

import "os"

func Handler() string { return os.Getenv("HOME") }
