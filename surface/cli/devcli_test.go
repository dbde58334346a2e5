package cli_test

// The parity and scaffold tests of this package run the command line as the corpus
// binary builds it: with the developer commands.
import _ "github.com/cmdbridge/cmdbridge/surface/cli/devcli"
