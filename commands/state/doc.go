// Package state holds the gates, state, backlog, lane, signal-cleanup and validate commands, corpus §3.2, of the delivery legacy corpus.
//
// Each command is one file in the legacy style (see package convention): a constructor
// returning a fresh *cli.App, an action, and its output; it registers itself with
// commands.Register from init. Domain logic lives in package delivery; the few helpers
// the domain still lacks are unexported here with a TODO(delivery) naming their target.
//
// Invariants:
//
//   - Check commands (validate, lane:health, gates) print their full report on stdout
//     even when they fail, and carry it as the failure envelope's data with --json.
//   - Read-only runs (validate, lane:health, and the dry runs of state:bootstrap,
//     backlog:prune and lane:suggest without --output) write nothing; gates writes only
//     its telemetry.
//   - state:doctor without --fix (or with --fix --dry-run) and the dry runs of
//     signal:cleanup and state:cleanup write nothing. state:doctor --fix and
//     state:cleanup rewrite wu-events.jsonl (the only commands here allowed to, spec
//     §1.7); state:cleanup appends every archived event to its monthly archive before
//     rewriting the log, so an interrupted run never loses an event.
//   - Cleanups never remove what they cannot read: unparsable signal, memory and event
//     lines are kept verbatim (state:doctor --fix removes malformed event lines, as its
//     report says), and a WU file that does not parse protects its signals.
//   - Only committable artifacts are committed (WU YAML, stamps, wu-events.jsonl);
//     signals, memory, archives and locks are runtime state and never staged.
//   - Writes go through the shared YAML encoder and node edits, so unknown keys, comments
//     and key order of WU files survive; commits follow corpus §2.4 via delivery.
package state
