// Package util is a helper package of another module: it registers nothing, so its
// exits are not reported here, but the functions that can end the process carry the
// Exits fact to the packages that call them.
package util

import (
	"fmt"
	"log"
	"os"
)

// Die ends the process.
func Die(msg string) { // want Die:"exits via os.Exit"
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(1)
}

// Check ends the process through Die, in this package.
func Check(err error) { // want Check:"exits via os.Exit"
	if err != nil {
		Die(err.Error())
	}
}

// Logger ends the process through a log.Fatalf.
type Logger struct{ l *log.Logger }

func (l Logger) Fail(format string, args ...any) { // want Fail:"exits via \\(\\*log\\.Logger\\)\\.Fatalf"
	l.l.Fatalf(format, args...)
}

// Fine returns; nothing is reported when commands call it.
func Fine() error { return nil }
