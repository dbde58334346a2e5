// Package effect says what a tool does: the effects a command declares (Declared: read
// only, destructive, idempotent, open world, network, runs workspace code) and the
// input-dependent effects that narrow them (Effect, Condition). It is light on purpose:
// the standard library only, nothing at init, so an adopter's program that declares its
// commands' effects (cmdbridge.Config.Effects) links nothing of the serving stack.
//
// Invariants:
//
//   - A Declared value that Check accepts is never read-only and destructive, nor
//     read-only and running workspace code, nor read-only with narrowing inputs.
//   - Condition.Holds treats absent, null, false and an empty list alike ("unset").
package effect
