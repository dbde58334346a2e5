// Package helper is a shared package outside the native tools: its uses of process
// globals are not reported here, but the functions that reach one carry the
// ReadsGlobal fact to the packages that refer to them.
package helper

import (
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
)

// Home reads the process environment.
func Home() string { // want Home:"reads os.Getenv"
	return os.Getenv("HOME")
}

// Dir reads it through Home, in this package.
func Dir() string { // want Dir:"reads os.Getenv"
	return filepath.Join(Home(), "x")
}

// Runner has methods that use process globals.
type Runner struct{ Env []string }

// Environ hands back the process environment.
func (r Runner) Environ() []string { // want Environ:"reads os.Environ"
	return append(os.Environ(), r.Env...)
}

// Log writes through the default logger.
func (r *Runner) Log(msg string) { // want Log:"reads log.Printf"
	log.Printf("%s", msg)
}

// Source is where a value comes from; a call through it is not followed.
type Source interface{ Lookup(key string) string }

// Proc is a Source over the process environment.
type Proc struct{}

func (Proc) Lookup(key string) string { // want Lookup:"reads os.Getenv"
	return os.Getenv(key)
}

// Via reads through an interface: whatever s is, the call is not followed.
func Via(s Source) string { return s.Lookup("HOME") }

// Call reads through a function value: not followed either.
func Call(f func(string) string) string { return f("HOME") }

// Getenv is a function value: a variable, not a function with a body.
var Getenv = os.Getenv

// NewLogger builds a logger of the caller's writer: no global.
func NewLogger(w io.Writer) *log.Logger { return log.New(w, "", 0) }

// Upper uses no global.
func Upper(s string) string { return strings.ToUpper(s) }
