package delivery

import (
	"errors"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Error is a domain failure carrying the corpus §2.3 error code a command reports
// (package storage's type, whose journal reports IO_ERROR with it).
type Error = storage.Error

// Errorf builds an *Error with a formatted message. A %w verb in format sets Err.
func Errorf(code, format string, args ...any) *Error { return storage.Errorf(code, format, args...) }

// CodeOf returns the code of the first *Error in err's chain, or INTERNAL for any other
// non-nil error, or "" for nil.
func CodeOf(err error) string {
	if err == nil {
		return ""
	}
	var de *Error
	if errors.As(err, &de) {
		return de.Code
	}
	return tool.CodeInternal
}

// AsError returns the first *Error in err's chain, or wraps err as INTERNAL.
func AsError(err error) *Error { return storage.AsError(err) }

// ToolError converts err into the tool contract's error value.
func ToolError(err error) *tool.Error {
	de := AsError(err)
	if de == nil {
		return nil
	}
	return &tool.Error{Code: de.Code, Message: de.Message, Details: de.Details}
}
