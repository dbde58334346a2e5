package failpoint

import (
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
)

// Environment variables that arm the failpoints (see the package doc).
const (
	KillVar  = "CMDBRIDGE_FAILPOINT"
	TraceVar = "CMDBRIDGE_FAILPOINT_TRACE"
)

// Steps a writer names.
const (
	Journal     = "journal"      // a journal record reached disk, before the write it protects
	Write       = "write"        // a file was written (replaced, created or removed)
	Append      = "append"       // lines were appended to a log
	BeforeAdd   = "before-add"   // about to run git add
	AfterAdd    = "after-add"    // git add staged the call's paths
	AfterCommit = "after-commit" // the commit exists; the journal still holds the call
	BeforeEnd   = "before-end"   // the call is over (committed, or rolled back); its journal is not yet removed
)

// The variables are read once: a test arms a child process, never its own.
var (
	killAt = func() int64 { n, _ := strconv.ParseInt(os.Getenv(KillVar), 10, 64); return n }()
	trace  = os.Getenv(TraceVar)
	armed  = killAt > 0 || trace != ""
	hits   atomic.Int64
)

// Hit marks that the writer completed step. When the process is armed it traces the
// step and, at the chosen count, kills the process with SIGKILL.
func Hit(step string) {
	if !armed {
		return
	}
	n := hits.Add(1)
	if trace != "" {
		if f, err := os.OpenFile(trace, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
			fmt.Fprintf(f, "%d %s\n", n, step)
			_ = f.Close()
		}
	}
	if n == killAt {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}
