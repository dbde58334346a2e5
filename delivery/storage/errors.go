package storage

import (
	"errors"
	"fmt"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Error is a failure carrying the corpus §2.3 error code a command reports. Exit is 2
// for usage errors (code USAGE) and 1 for every other code. It is package delivery's
// Error (an alias there), declared here so that the journal's IO_ERROR failures are of
// the one type every command reads.
type Error struct {
	// Code is one of the tool.Code* command codes (NO_WORKSPACE, CONFIG_INVALID, …).
	Code string
	// Message is the human-readable text, without the "[command] error: " prefix.
	Message string
	// Details is the envelope's error.details (nil when there are none).
	Details any
	// Err is the underlying cause, if any.
	Err error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Exit is the process exit code the error maps to (corpus §2.3).
func (e *Error) Exit() int {
	if e.Code == tool.CodeUsage {
		return 2
	}
	return 1
}

// WithDetails returns e with Details set.
func (e *Error) WithDetails(details any) *Error {
	e.Details = details
	return e
}

// Errorf builds an *Error with a formatted message. A %w verb in format sets Err.
func Errorf(code, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Code: code, Message: err.Error(), Err: errors.Unwrap(err)}
}

// AsError returns the first *Error in err's chain, or wraps err as INTERNAL.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var de *Error
	if errors.As(err, &de) {
		return de
	}
	return &Error{Code: tool.CodeInternal, Message: err.Error(), Err: err}
}
