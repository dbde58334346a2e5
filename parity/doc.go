// Package parity runs one tool call through several lanes (subprocess,
// adapter, native) on separate copies of a workspace and reports every
// difference between them.
//
// Invariants:
//   - The input is checked first, as the kernel checks it before any lane
//     (tool.Spec.CheckInput): an input the schema refuses runs on no lane, and
//     every lane reports that one INVALID_INPUT.
//   - Each lane runs on its own copy of the workspace, holding exactly the
//     workspace's content when the call starts: a fresh copy, or (Config.Keep, a
//     script's calls) the lane's kept directory brought to that content by
//     compare.SyncTreeSharingObjects; the workspace given by the caller is only read, never written.
//   - Outputs are compared after a documented normalisation (see Normalizer):
//     each lane's copy directory becomes $WORK; generated ids, RFC 3339
//     timestamps and durations become placeholders. Metadata is never compared.
//   - Compared for every lane pair: success, data, error.code and the file
//     tree the call leaves behind. Between subprocess and adapter also the raw
//     stdout, stderr and exit code, byte for byte after the $WORK rewrite.
//   - For a plain command (legacy.OutputPlain) stdout, stderr and exit code
//     are compared byte for byte between every pair of lanes, native included:
//     its output is read back through the adapter's plain mapping (data, or a
//     failure's details, {stdout, stderr, exit_code}, or a JSON document with
//     its exact bytes in metadata, tool.Plain); when a native lane returned a
//     document without its bytes, its data is compared as JSON.
//   - The adapter lane runs a command in-process only where serving would
//     (adapter.Route: its tier, or Config.RunUnanalysed for an unanalysed one);
//     elsewhere it runs the subprocess lane and LaneResult.Routed says why.
//   - A run that ends inside a script never leaves an older pass: the results
//     file already holds that tool's error (Unfinished, DiedInLane for an
//     in-process lane), and Supervise reports it when the child it watches dies.
//   - The subprocess lane runs the command's own program: Config.Binary, which
//     a Suite finds on PATH by the leaf's Program or Suite.Program.
//   - A suite run (RunSuite) never reports a pass it did not prove: a tool
//     Suite.Check refuses (StaleCheck: the running binary lacks, or is older
//     than, the native source of the tool) is an error telling what to rebuild,
//     and a failing script whose native lane answered NOT_IMPLEMENTED is
//     in-progress. Results merge per tool (Merge), each with its own run time.
//   - The comparisons, snapshots and the results file are parity/compare's
//     (the kernel's shadow route and the status report use that package alone,
//     so a serving program never links this package's script runner). The
//     package never imports kernel and changes no process globals
//     (CurrentProgram only reads the executable's path, modification time and
//     build info).
package parity
