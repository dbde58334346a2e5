// Package initiative holds the initiative, plan, orchestration and delegation commands, corpus §3.5, of the delivery legacy corpus.
//
// Each command is one file in the legacy style (see package convention): a constructor
// returning a fresh *cli.App, an action, and its output; it registers itself with
// commands.Register from init. Domain logic lives in package delivery: initiatives
// (initiative.go), plan files (plans.go), execution waves (waves.go), the delegation
// registry (delegations.go) and signals (signals.go).
//
// Commands: initiative:create, initiative:edit, initiative:list, initiative:status,
// initiative:add-wu, initiative:remove-wu, initiative:bulk-assign, initiative:plan,
// plan:create, plan:edit, plan:link, plan:promote, orchestrate:init-status,
// orchestrate:initiative, orchestrate:monitor, delegation:list.
//
// Invariants:
//
//   - A failure changes nothing: every input (ids, WUs, links, rules, the wave plan) is
//     checked before the first write, so an unknown initiative, a duplicate id or slug, a
//     WU linked elsewhere or a dependency cycle leaves the workspace and git untouched.
//   - Only committable artifacts (initiative and WU YAML, plans) are committed, with the
//     subjects of corpus §3.5 (ids lower-cased), through delivery.CommitArtifacts.
//   - The read-only commands (initiative:list, initiative:status, orchestrate:init-status,
//     delegation:list, and bulk-assign, orchestrate:initiative and orchestrate:monitor in
//     their dry-run or report-only forms) write nothing at all.
//   - Helpers not yet in package delivery (readBucketRules, parseSince) carry a
//     TODO(delivery) naming where they belong.
package initiative
