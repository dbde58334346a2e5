package parity_test

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// serialT runs scripts one after another: the adapter lane swaps process
// globals (os.Stdout, flag.CommandLine…) while a command runs, and testscript
// reads flag.CommandLine (testing.Verbose) between the commands of parallel
// scripts.
type serialT struct {
	*testing.T
	verbose bool
}

func (serialT) Parallel() {}

func (t serialT) Verbose() bool { return t.verbose }

func (t serialT) Run(name string, f func(testscript.T)) {
	t.T.Run(name, func(sub *testing.T) { f(serialT{T: sub, verbose: t.verbose}) })
}
