package adapter

import (
	"time"
)

// Lane names reported in [Result.Lane] and in tool.Output metadata.
const (
	LaneAdapter    = "adapter"
	LaneSubprocess = "subprocess"
)

// Status says how a run ended.
type Status string

const (
	// Completed: the command ended by itself (any exit code).
	Completed Status = "completed"
	// TimedOut: the call's deadline passed first (exit code 124), even when the command
	// finished a moment later.
	TimedOut Status = "timeout"
	// Cancelled: the caller cancelled the call before the command ended (exit code 130).
	Cancelled Status = "cancelled"
)

// Exit codes the lanes use when the command itself did not choose one.
const (
	// ExitTimeout is the code of a run whose deadline passed (as timeout(1) reports it).
	ExitTimeout = 124
	// ExitCancelled is the code of a run the caller cancelled (128 + SIGINT, the shell's
	// convention for an interrupted command).
	ExitCancelled = 130
	// ExitUnavailable is the code of a subprocess run whose binary could not be started.
	ExitUnavailable = 127
)

// DefaultMaxOutput caps each captured stream when Config.MaxOutput is zero.
const DefaultMaxOutput = 8 << 20

// Config is what one run takes besides the command and its argv.
type Config struct {
	// Stdin is the command's whole standard input; nil means empty.
	Stdin []byte
	// Dir is the working directory of the run; "" keeps the host's.
	Dir string
	// Env sets these variables for the run (on top of the host environment).
	Env map[string]string
	// Environ is the environment the subprocess lane's child starts from, before Env
	// (nil: the host's, as it was before any in-process run changed it). A host inside an adopted program passes the one
	// the program was started with: the program's main may have changed its own (loaded
	// a .env) before the bridge ran, and the child's main would then find the
	// variables set already.
	Environ []string
	// MaxOutput caps each of stdout and stderr, in bytes (default 8 MiB).
	MaxOutput int
	// Binary is the program the subprocess lane runs: `Binary [Prefix...] <name> argv...`
	// for a command of the one-app-per-command shape (a multi-call binary such as
	// delivery), `Binary [Prefix...] argv...` for a tree leaf, whose argv starts with its
	// path. The adapter lane also uses it to serve calls while a timed-out main is still
	// running; without it those calls wait.
	Binary string
	// Prefix are argv words written between Binary and the command (a standalone host
	// re-running itself as the program, for instance).
	Prefix []string
	// RunUnanalysed lets the adapter lane run commands nobody analysed (no tier) in-process
	// when the adapter lane is asked for; without it they run on the subprocess lane
	// whenever Binary is set.
	RunUnanalysed bool
}

func (o Config) maxOutput() int {
	if o.MaxOutput > 0 {
		return o.MaxOutput
	}
	return DefaultMaxOutput
}

// Result is what one run of a command produced, whichever lane ran it.
type Result struct {
	Command string
	// Output is the command's output convention (legacy.Command.Output), which
	// [ToOutput] maps by.
	Output string
	Args   []string
	// Lane is LaneAdapter or LaneSubprocess (the latter also when the adapter routed
	// the call to a subprocess because a timed-out main was still running).
	Lane            string
	Stdout          []byte
	Stderr          []byte
	StdoutTruncated bool
	StderrTruncated bool
	ExitCode        int
	Status          Status
	Duration        time.Duration
	// LeakedGoroutines counts goroutines the main started that were still running when
	// it ended (adapter lane only).
	LeakedGoroutines int
}

// statusNote is the stderr line both lanes append when a deadline passes or the caller
// cancels, so that the two lanes agree on it byte for byte.
func statusNote(name string, s Status, queued bool) string {
	where := "before the command finished"
	if queued {
		where = "while the call waited for the adapter lane"
	}
	if s == Cancelled {
		return "[" + name + "] cancelled: the caller cancelled the call " + where + "\n"
	}
	return "[" + name + "] timeout: the call's deadline passed " + where + "\n"
}
