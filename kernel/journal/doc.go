// Package journal keeps the write journal of one call on one worktree on disk, so that a
// call killed in the middle of its writes (kill -9, a power cut) is undone by the next
// process that opens the worktree, instead of being left for the next commit to sweep in.
//
// A journal is a file in the worktree's git directory ([FileName]; for a workspace that
// is not in a repository, .cmdbridge/journal under it): a header line naming the root
// and HEAD when the journal began, then one JSON line per [Record], each a pre-image of
// a path the call is about to write (absent, content and mode, or an append-only log's
// size), or a step of the commit (the paths git add is about to stage, the commit about
// to run). [Held.Append] writes a record and fsyncs it before it returns: the caller
// writes the path only after. A call holds the worktree's journal lock ([Lock]: a flock
// on the git directory itself, so taking it writes nothing) from before its first read
// to after its journal is removed.
//
// [Lock] replays a journal left by a dead process before it returns, and [Recover] (the
// kernel, when it opens a workspace) does the same and lets go: the records are restored
// newest first, the staged paths get HEAD's index entries back, and the file is removed.
// A journal whose commit step was reached (the paths to stage, or the commit of nothing,
// journaled) and whose HEAD moved since the journal began is not replayed: the commit
// landed, the call's writes are committed state, and only the file is removed.
//
// Invariants:
//
//   - Every record is on disk (written, fdatasync'd; the journal's directory fsync'd
//     when the file is created) before the write it protects begins.
//   - A record torn by a crash while it was being written is ignored with everything
//     after it: the write it was to protect had not begun.
//   - Replaying is idempotent: a replay killed half-way is replayed again from the start.
//   - Two holders of one worktree's lock never overlap, in one process or across
//     processes; a process that dies holds nothing (flock). The lock is not re-entrant.
//   - The journal's removal is not fsync'd: after a power cut it may come back, and is
//     then replayed as a call that did not commit (or, committed, removed).
//   - Nothing under the git directory other than the journal file is ever written here;
//     the only git commands run are `git reset -q -- <paths>` on replay and, for a
//     reftable repository, `git rev-parse HEAD` (HEAD is otherwise read from files).
package journal
