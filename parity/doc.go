// Package parity runs one tool call through several lanes (subprocess,
// adapter, native) on separate copies of a workspace and reports every
// difference between them.
//
// Invariants:
//   - Each lane runs on its own fresh copy of the workspace; the workspace
//     given by the caller is only read, never written.
//   - Outputs are compared after a documented normalisation (see Normalizer):
//     each lane's copy directory becomes $WORK; generated ids, RFC 3339
//     timestamps and durations become placeholders. Metadata is never compared.
//   - Compared for every lane pair: success, data, error.code and the file
//     tree the call leaves behind. Between subprocess and adapter also the raw
//     stdout, stderr and exit code, byte for byte after the $WORK rewrite.
//   - The package never imports kernel (the kernel imports parity for its
//     shadow route) and touches no process globals.
package parity
