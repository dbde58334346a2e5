// Package shadow is the kernel's shadow decorator: a shadow-routed call is served by its
// lane (the adapter lane, or the sandbox lane for a sandboxed tool) while the native lane
// runs the same call on a copy of the workspace, and the two are compared.
//
// It is plugged into the kernel as the lanes are, and the kernel does not import it:
// [Runs] implement the lane contract's lane.Shadows, and package kernel/assemble gives
// kernel.Config.Shadow a function that makes them with [New] from the state directory
// the kernel finds. [Runs] belong to one kernel: [Runs.Lane] decorates a primary lane
// with a secondary (the kernel calls it for each unforced shadow-routed call, with the
// native lane as the secondary), [Runs.Stats] counts the comparisons per tool
// (kernel.Kernel.ShadowStats), [Runs.Close] removes the directories kept for the copies
// (kernel.Kernel.Close). The copy is a directory kept per workspace and brought to the
// workspace's content before each run by a parity/compare Mirror; the comparison is
// parity's (compare.CompareOutputs and CompareTrees after normalisation).
//
// Invariants:
//
//   - The served result is always the primary's: a shadow that cannot be made, whose
//     secondary rejects the input, panics or outlives the call's deadline changes
//     nothing the caller gets; it is recorded as an error.
//   - The outcome of every shadowed call reaches the receipt only through the call's
//     lane.Notes (SetShadow), with at most 20 differences. The secondary runs with no
//     notes: what it would note (a key/value, a sandbox) never lands in the served
//     call's receipt, which records the lane that served it.
//   - The kernel's state directory, and the workspace's own state files in its
//     .cmdbridge, are never copied; the workspace's committed configuration is.
//   - A kept directory serves one run at a time.
package shadow
