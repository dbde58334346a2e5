// Package compare is what a parity run shares with those who read or repeat its
// comparisons without running scripts: the kernel's shadow route and the status report.
// It compares two lanes' outputs, raw streams and file trees after a documented
// normalisation (Normalizer), snapshots and copies workspaces, and reads, merges and
// writes the results file `parity` leaves for `status`.
//
// Invariants:
//   - It links no script runner: neither testscript nor the testing package, so a
//     program serving tools (an adopter's binary) carries none of parity's test tooling.
//   - Normalisation only: each lane's copy directory becomes $WORK; generated ids, RFC
//     3339 timestamps and durations become placeholders. Metadata is never compared.
//   - A results file it cannot read, or one with a schema version it does not know, is an
//     error, never an empty result; a written file replaces the old one atomically.
//   - It changes no process globals and never imports kernel or parity.
package compare
