package cli

import (
	"errors"
	"fmt"
	"io"

	ucli "github.com/urfave/cli/v2"
)

// Exit statuses of the cmdbridge command line.
const (
	ExitOK     = 0
	ExitFailed = 1
	ExitUsage  = 2
)

// UsageError is a command line its command refuses before doing anything: an unknown
// subcommand or flag, a missing or malformed argument (exit status 2). Any other error a
// command returns is a failure (exit status 1).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// UsageErrorf is a [UsageError] with a formatted message (%w wraps as in fmt.Errorf).
func UsageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// ErrSilent ends a command with status 1 after it printed its result (a failed call's
// Output, a report naming its problems): the root prints nothing more.
var ErrSilent = errors.New("failed (reported above)")

// usageError is UsageErrorf, as this package's commands spell it.
func usageError(format string, args ...any) error { return UsageErrorf(format, args...) }

// commandError marks an error a command's action returned, so the root tells it from
// the plain errors urfave/cli returns itself for a flag it could not parse or a required
// flag left out (usage errors).
type commandError struct{ err error }

func (e commandError) Error() string { return e.err.Error() }
func (e commandError) Unwrap() error { return e.err }

// markActions makes every action of cmds (and of their subcommands) return its error as
// a commandError.
func markActions(cmds []*ucli.Command) {
	for _, cmd := range cmds {
		if action := cmd.Action; action != nil {
			cmd.Action = func(c *ucli.Context) error {
				if err := action(c); err != nil {
					return commandError{err}
				}
				return nil
			}
		}
		markActions(cmd.Subcommands)
	}
}

// exitStatus is where an error becomes an exit status, once, for the whole command line:
// it prints the error's message on stderr after the command line's name, unless the
// command printed its result already ([ErrSilent]) or the error carries no message
// (urfave/cli's Exit("", code)).
func exitStatus(name string, err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	status := ExitUsage // urfave/cli's own errors: a flag it could not parse, a required flag missing
	var usage *UsageError
	var ec ucli.ExitCoder
	var cmd commandError
	switch {
	case errors.As(err, &usage):
	case errors.Is(err, ErrSilent):
		return ExitFailed
	case errors.As(err, &ec):
		status = ec.ExitCode()
	case errors.As(err, &cmd):
		status = ExitFailed
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(stderr, name+": "+msg)
	}
	return status
}
