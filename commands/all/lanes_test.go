package all_test

import (
	// The state domain registers its commands for every test of this binary.
	_ "github.com/cmdbridge/cmdbridge/commands/state"
)
