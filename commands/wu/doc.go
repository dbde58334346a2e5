// Package wu holds the work-unit lifecycle commands (wu:*) of corpus §3.1 of the delivery
// legacy corpus: wu:create, wu:claim, wu:status, wu:prep, wu:done, wu:block, wu:unblock,
// wu:release, wu:edit, wu:delete, wu:validate and wu:preflight (and the rest of §3.1 as
// they land).
//
// Each command is one file named after it, in the legacy style of package convention:
// registration from init, the constructor newXApp returning a fresh *cli.App, the action,
// then its output types. Most commands are shells around their operation in
// delivery/ops (shared with the native tools); wu.go and recovery.go hold the few flag
// types and helpers the remaining legacy logic (wu:prune, wu:repair) still uses.
//
// Invariants:
//
//   - Checks come before writes: a command that fails a check (status transition,
//     validation, lane lock, dirty worktree, merge) has written nothing. The lane lock is
//     the first write of wu:claim and is released again if a later step fails.
//   - Only committable artifacts (WU YAML, initiative YAML, wu-events.jsonl, stamps) are
//     committed, in one pathspec commit per command (delivery.CommitArtifacts); locks,
//     telemetry and audit records are runtime state and never committed.
//   - Read-only commands (wu:status, wu:validate, wu:preflight) write nothing.
//   - Lane locks are released only when they are held for the WU concerned; a lock of
//     another WU is never touched.
//   - Output follows corpus §2.2 through convention; nothing here prints directly, exits or
//     recovers.
//   - The reconciling commands (wu:recover, wu:repair) are exempt from the transition
//     table, since they align the files with each other. wu:recover without --action and
//     wu:repair --check write nothing (--check fails with CHECK_FAILED on any issue);
//     wu:recover reset and nuke without --force are a usage error raised before the
//     action runs. wu:repair treats the YAML as the truth and only appends events along
//     the allowed transitions, writes stamps, sets a stamped WU to done and removes a done
//     WU's worktree; the event log is rewritten only by wu:recover nuke and by wu:repair
//     --repair-state (after a backup copy).
package wu
