package helper

import "os"

// testHome is in a _test.go file: no fact is exported from it.
func testHome() string { return os.Getenv("HOME") }
