package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/cmdbridge/cmdbridge/kernel"
)

// stdioBusy makes ServeStdio exclusive: descriptor 1 and os.Stdout are process-wide.
var stdioBusy sync.Mutex

// ServeStdio serves k's tools on in and out (normally os.Stdin and os.Stdout) until the
// client closes the stream or ctx ends, every call running non-interactively as caller.
// When the client closes the stream, every request it sent before is still answered
// (cancelled ones excepted) before ServeStdio returns; a malformed line is answered with
// a JSON-RPC error and the session goes on.
//
// The protocol writes to its own duplicate of out's descriptor. Descriptor 1 is then
// pointed at standard error and os.Stdout set to os.Stderr, so whatever else the
// process writes to stdout lands on stderr instead of in the stream. Both are restored,
// and in and out left open, when ServeStdio returns (after the calls in flight ended).
// Only one ServeStdio may run in a process at a time.
func ServeStdio(ctx context.Context, k *kernel.Kernel, caller kernel.Caller, in, out *os.File, cfg Config) (err error) {
	if !stdioBusy.TryLock() {
		return errors.New("mcp: ServeStdio is already running in this process")
	}
	defer stdioBusy.Unlock()
	srv, inflight, err := newServer(k, caller, cfg.options())
	if err != nil {
		return err
	}
	// The duplicates first: out may well be descriptor 1 itself.
	proto, err := dupFile(out, "mcp-out")
	if err != nil {
		return err
	}
	reader, err := dupFile(in, "mcp-in")
	if err != nil {
		_ = proto.Close()
		return err
	}
	restore, err := redirectStdout()
	if err != nil {
		_ = proto.Close()
		_ = reader.Close()
		return err
	}
	defer func() {
		// A call still running could write to stdout after the restore: wait for it.
		inflight.close()
		if rerr := restore(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	// The transport closes both duplicates when the session ends; in and out stay open.
	err = srv.Run(ctx, &lineTransport{in: reader, out: proto})
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		// The host asked us to stop: that is a normal end.
		err = nil
	}
	if err != nil {
		return fmt.Errorf("mcp: stdio: %w", err)
	}
	return nil
}

// dupFile returns a close-on-exec duplicate of f's descriptor, so closing it leaves f
// open and no child process inherits it.
func dupFile(f *os.File, name string) (*os.File, error) {
	if f == nil {
		return nil, fmt.Errorf("mcp: stdio: no %s file", name)
	}
	sc, err := f.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("mcp: stdio: %s: %w", name, err)
	}
	var fd int
	var derr error
	if err := sc.Control(func(raw uintptr) {
		fd, derr = unix.FcntlInt(raw, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil {
		return nil, fmt.Errorf("mcp: stdio: %s: %w", name, err)
	}
	if derr != nil {
		return nil, fmt.Errorf("mcp: stdio: duplicate %s: %w", name, derr)
	}
	return os.NewFile(uintptr(fd), name), nil
}

// redirectStdout points descriptor 1 and os.Stdout at standard error and returns the
// function that undoes it.
func redirectStdout() (func() error, error) {
	saved, err := unix.FcntlInt(1, unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("mcp: stdio: save descriptor 1: %w", err)
	}
	if err := unix.Dup3(2, 1, 0); err != nil {
		_ = unix.Close(saved)
		return nil, fmt.Errorf("mcp: stdio: point descriptor 1 at stderr: %w", err)
	}
	prev := os.Stdout
	os.Stdout = os.Stderr
	return func() error {
		os.Stdout = prev
		err := unix.Dup3(saved, 1, 0)
		_ = unix.Close(saved)
		if err != nil {
			return fmt.Errorf("mcp: stdio: restore descriptor 1: %w", err)
		}
		return nil
	}, nil
}
