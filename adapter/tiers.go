package adapter

import (
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// The tiers of a tier table, bridgecheck's verdict on each legacy command (the
// adopter's table is read into legacy.Command.Tier, see legacy.Registry.SetTiers).
const (
	// TierInProcess: bridgecheck charged nothing to the command; the adapter lane runs it.
	TierInProcess = legacy.TierInProcess
	// TierSubprocess: bridgecheck found code unsafe in-process; [Call] serves the command
	// on the subprocess lane even when the adapter lane was asked for.
	TierSubprocess = legacy.TierSubprocess
)

// Reasons in the metadata "reason" of a call [Call] moved to the subprocess lane.
const (
	// ReasonTier: the command's tier is subprocess.
	ReasonTier = "tier"
	// ReasonUnanalysed: nobody analysed the command (no tier) and the host did not opt in
	// to running such commands in-process (Config.RunUnanalysed).
	ReasonUnanalysed = "unanalysed"
)

// tierOf is the tier lookup [Call] uses; tests replace it to route a test command.
var tierOf = func(c legacy.Command) string { return c.Tier }

// Route says whether a call of c asked for on the adapter lane runs on the subprocess
// lane instead, as [Call] (and parity's adapter lane) decide: the reason (ReasonTier or
// ReasonUnanalysed), or "" when it runs in-process.
func Route(c legacy.Command, opts Config) (reason string) { return routeOf(c, opts) }

// routeOf says whether [Call] must serve c on the subprocess lane although the adapter
// lane was asked for, and why: its tier is subprocess, or it has none and a binary is
// configured without opts.RunUnanalysed.
func routeOf(c legacy.Command, opts Config) (reason string) {
	switch tierOf(c) {
	case TierSubprocess:
		return ReasonTier
	case TierInProcess:
		return ""
	}
	if opts.Binary != "" && !opts.RunUnanalysed {
		return ReasonUnanalysed
	}
	return ""
}
