// Package all registers every native tool domain in nativetools.Default by importing it.
package all

import (
	_ "github.com/cmdbridge/cmdbridge/nativetools/delegation"
	_ "github.com/cmdbridge/cmdbridge/nativetools/git"
	_ "github.com/cmdbridge/cmdbridge/nativetools/lanelock"
	_ "github.com/cmdbridge/cmdbridge/nativetools/worktree"
)
