// Package ops holds the domain logic of the delivery commands that are being migrated to
// native tools, extracted from the legacy mains so that the legacy command and the native
// tool call the same code and differ only in their shells: flag parsing and printing on
// one side, a typed Input and tool.Output on the other.
//
// Every operation has the same shape:
//
//	func X(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in XInput) (XData, Notes, error)
//
// XData is exactly the JSON `data` the command prints (same fields, tags and order).
// Notes carries the warnings in the order they arose (the legacy shell prints each as
// "[<command>] warning: …" and lists them in the envelope; a native shell lists them in
// its output's metadata) and the text-mode pieces a shell needs to print byte-identical
// human output. Notes are returned even when the error is not nil: a warning printed
// before a failure is still part of the failed call's output.
//
// Checks the legacy command makes before it opens the workspace are the input's Check
// method: a shell calls it first so that error precedence stays the command's (a
// VALIDATION or USAGE problem is reported before NO_WORKSPACE). Operations call it again,
// so calling an operation directly never skips a check.
//
// Invariants: errors are *delivery.Error values carrying the command's §2.3 code;
// nothing here reads process globals (os.Args, os.Stdout, os.Getenv, the working
// directory): the directory, the environment and the clock come in through the
// arguments. The package lives beside delivery rather than in it because it uses
// delivery/lanelock, which imports delivery.
package ops
