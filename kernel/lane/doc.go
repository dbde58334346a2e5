// Package lane is the contract between the kernel and the lanes that run its calls.
//
// A [Lane] has a name and runs one [Call] the kernel has already governed, validated,
// scoped and recorded; it returns the call's tool.Output and leaves whatever else the
// receipt should hold in the call's [Notes]. A lane that must prepare a call before it
// runs (decode the input into a handler's Input struct) is a [Binder], so an input the
// lane rejects is told apart from a failure of the tool; [Bind] prepares a call on any
// lane. Decorators (the shadow lane) wrap lanes through the same two methods; the
// shadow decorator is plugged into the kernel as [Shadows] (the decorator of a served
// lane with a secondary, its [ShadowStat] counts, Close), built by kernel.Config.Shadow.
//
// The package holds the contract and nothing else: no lane lives here, and it imports
// neither the kernel nor any lane's internals, so a lane in any package (the adapter's,
// the native registry's, the sandbox's, the shadow decorator) implements it without
// importing the kernel. Package kernel re-exports these names (kernel.Lane,
// kernel.LaneCall, kernel.LaneNotes, kernel.Caller, kernel.Shadows, kernel.ShadowStat,
// the lane and route names).
//
// Invariants:
//
//   - A lane never refuses on policy grounds: by the time it runs, the call is allowed.
//   - A lane never changes Call.Spec, nor the slices of Call.Scopes and Call.Hidden,
//     which the kernel shares between calls.
//   - Notes are the only way a lane adds to the receipt; every method of a nil *Notes
//     records or returns nothing, so a Call made outside a dispatch is still runnable.
package lane
