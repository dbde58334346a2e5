// Package wu holds the work-unit lifecycle commands (wu:*), spec §3.1, of the delivery legacy corpus.
//
// Each command is one file in the legacy style (see package convention): a constructor
// returning a fresh *cli.App, an action, and its output; it registers itself with
// commands.Register from init. Domain logic lives in package delivery.
//
// Invariants of the recovery and handoff commands (wu:deps, wu:brief, wu:delegate,
// wu:proto, wu:prune, wu:cleanup, wu:unlock-lane, wu:infer-lane, wu:sandbox):
//
//   - wu:deps, wu:infer-lane, wu:unlock-lane --list and wu:prune without --execute never
//     write anything (spec "RO").
//   - wu:brief and wu:delegate only append (wu-events.jsonl, delegation-registry.jsonl) and
//     never commit; wu:cleanup, wu:prune and wu:unlock-lane never commit either.
//   - Lane locks are only read and removed through delivery/lanelock, by owner identity.
//   - wu:sandbox never detaches a child: on timeout its whole process group is killed.
package wu
