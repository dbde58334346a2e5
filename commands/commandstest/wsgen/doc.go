// Package wsgen writes a mature, real-scale delivery workspace for tests and benchmarks:
// the shape of a long-lived LumenFlow project (about 1,265 WU specs over 28 lanes, 49
// initiatives, ~2,900 event lines, ~1,200 stamps, memory, signals, gate telemetry) at any
// integer scale (1×, 4×, 16× are the ones measured).
//
// Besides volume it writes the shapes real data has and the hand-made acme fixture lacks,
// and names every instance in the returned [Manifest] so a test can derive what a command
// should answer instead of hard-coding it:
//
//   - WUs claimed, released and then superseded or cancelled (closed in YAML, event state
//     ready), and closed WUs that were never claimed;
//   - lanes whose code paths contain their own sub-lanes' (`Framework: Core` and
//     `Framework: Core Lifecycle`);
//   - completions recorded as a date without a time, on the day of a timed claim;
//   - legacy specs without `exposure`, with the legacy `completed` status, notes as a list
//     and no events (they predate the event log);
//   - initiatives listing WUs whose spec files are gone, and stamps without a WU spec;
//   - a handful of WUs in progress, each with its lane lock and (with [Options.Git]) a real
//     linked worktree on its lane branch; blocked WUs; a ready backlog with dependencies.
//
// Invariants:
//
//   - Deterministic: the same [Options] write byte-identical files (git metadata aside),
//     whatever the machine; randomness comes only from Options.Seed.
//   - Real formats only: events, stamps, locks, signals, memory nodes and telemetry are
//     encoded by the delivery package's own types; YAML is written in the corpus §1.5/§1.6
//     key order with the quoting LumenFlow's files use.
//   - Consistent by construction, except for the shapes above: every done WU has its
//     stamp, every event names a WU that has a spec, every blocked_by names a WU that
//     exists, locks are fresh at [Manifest.Now]. A command that flags a generated
//     workspace as broken is reporting one of the listed shapes.
//   - Commands must run with DELIVERY_NOW = Manifest.Now: the history ends there.
//   - It writes only under the directory it is given, and never reads the caller's git
//     configuration (git runs with GIT_CONFIG_GLOBAL=/dev/null).
package wsgen
