package tool

import (
	"os"
	"testing"
)

// Tests may use process globals: _test.go files are never checked.
func TestHandler(t *testing.T) {
	_ = os.Getenv("HOME")
	_ = os.Stdout
}
