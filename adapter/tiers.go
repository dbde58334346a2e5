package adapter

import "github.com/cmdbridge/cmdbridge/commands"

// The tiers of a tier table, bridgecheck's verdict on each legacy command (the
// adopter's table is read into commands.Command.Tier, see commands.Registry.SetTiers).
const (
	// TierInProcess: bridgecheck charged nothing to the command; the adapter lane runs it.
	TierInProcess = commands.TierInProcess
	// TierSubprocess: bridgecheck found code unsafe in-process; [Call] serves the command
	// on the subprocess lane even when the adapter lane was asked for.
	TierSubprocess = commands.TierSubprocess
)

// Reasons in the metadata "reason" of a call [Call] moved to the subprocess lane.
const (
	// ReasonTier: the command's tier is subprocess.
	ReasonTier = "tier"
	// ReasonUnanalysed: nobody analysed the command (no tier) and the host did not opt in
	// to running such commands in-process (Options.InProcess).
	ReasonUnanalysed = "unanalysed"
)

// tierOf is the tier lookup [Call] uses; tests replace it to route a test command.
var tierOf = func(c commands.Command) string { return c.Tier }

// routeOf says whether [Call] must serve c on the subprocess lane although the adapter
// lane was asked for, and why: its tier is subprocess, or it has none and a binary is
// configured without opts.InProcess.
func routeOf(c commands.Command, opts Options) (reason string) {
	switch tierOf(c) {
	case TierSubprocess:
		return ReasonTier
	case TierInProcess:
		return ""
	}
	if opts.Binary != "" && !opts.InProcess {
		return ReasonUnanalysed
	}
	return ""
}
