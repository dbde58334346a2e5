// Package state holds the gates, state, backlog, lane, signal-cleanup and validate commands, spec §3.2, of the delivery legacy corpus.
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
//   - Writes go through the shared YAML encoder and node edits, so unknown keys, comments
//     and key order of WU files survive; commits follow spec §2.4 via delivery.
package state
