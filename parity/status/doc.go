// Package status assembles the migration status of every tool — its route, its last
// parity result, its golden coverage and its bridgecheck tier — and renders it as an
// aligned text table, a stable JSON document, or one self-contained HTML page. A tool
// whose spec carries warnings (a schema fallback, an unavailable command; the caller
// passes tool.Spec.Warnings) is marked "(!)" and its warnings are listed in all three.
//
// Invariants:
//
//   - Build only reads: the parity results file, the scripts under testdata/script/ and,
//     for the "migrate next" ranking (Rank), the Go sources of the commands the caller
//     names (Tool.Source) and of the native tool packages under the repository (those
//     calling native.New). It never writes, never runs a tool, and never builds a kernel;
//     routes and tiers come from the caller, so the package is usable on any corpus.
//   - A missing results file is not an error: every tool's parity state is "none" and
//     the report says the file was not found. A results file that exists but cannot be
//     read or has a schema version compare.ReadResults does not read is an error (a stale
//     reader must not guess). Each tool's time is its own last run (results merge per
//     tool), and a tool in progress (a scaffolded handler answering NOT_IMPLEMENTED) has
//     its own parity state, apart from failures.
//   - Output is deterministic for the same inputs: tools sorted by name, the clock
//     injected, the JSON field order fixed by the types below (documented on Report).
//   - The HTML page makes no network fetch: CSS and JavaScript are inline, and every
//     value reaches the page through html/template's contextual escaping.
//   - Totals add up: every command-backed tool is counted in exactly one of
//     native-with-parity, native-without-parity, shadow or adapter; native-only tools
//     (no legacy command) are counted apart and never in the migration progress.
package status
