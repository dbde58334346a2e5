// Package storage is how the delivery domain keeps its files: YAML documents edited as
// nodes, files replaced atomically, JSONL logs appended under a lock, and the write
// journal that lets a failed run put every one of them back.
//
//   - YAML: [DecodeYAML], [EncodeYAML] (the one §1.14 encoder) and the node helpers
//     [MapGet], [MapSet], [MapDelete], [MapPath], [EnsureMap], [StrNode], [DateNode]…,
//     and what the domain's readers share to report a wrong type ([Deref], [IsNull],
//     [KindName], the Tag* constants).
//   - Files: [WriteFileAtomic] and [WriteFileAtomicIn] (renameio: the file is fsynced
//     before the rename, the directory after), [LockPath] (a lockedfile flock that dies
//     with its holder).
//   - JSONL stores: [AppendJSONL] (one write on O_APPEND under an exclusive flock of the
//     file itself, no sidecar files), [ReadRecords] (blank lines ignored, bad lines
//     reported with their numbers and skipped), [RewriteJSONL], [KeepJSONL] (an append
//     a failed run keeps).
//   - Write journal: [BeginJournal], [Journal.Discard], [Journal.Rollback]; the write
//     helpers find the active journal by path ([JournalFor]) and record pre-images
//     through [JournalWrite], [JournalAppend] and [JournalMkdir]; the commit step calls
//     [Journal.Staging], [Journal.Committing] and [Journal.Committed].
//   - Errors: [Error], the coded failure every delivery command reports (package
//     delivery's Error is this type), built by [Errorf] and found in a chain by
//     [AsError].
//
// It knows no workspace, work unit or git: package delivery builds its model on it, and
// hands [Journal.Rollback] what resets the index entries a failed run staged.
//
// Invariants:
//
//   - YAML edits change only the nodes they touch; unknown keys and comments survive, new
//     keys are appended at the end of their mapping.
//   - Files are replaced atomically and durably (temp file, fsync, rename, directory
//     fsync; mode kept).
//   - Every write helper here records the path's pre-image in the active journal before
//     its first write in the run (absent, content and mode, or an append-only log's
//     size); a record that cannot reach disk (package kernel/journal, fdatasync'd) is an
//     IO_ERROR and the write does not happen. .git is never journaled.
//   - One journal is active per workspace root in a process; a second run on the same
//     root gets an inert journal. A rollback restores newest first; a commit recorded as
//     done ([Journal.Committed]) is never undone.
//   - A JSONL read never holds half of an append: readers take no lock, so a read that
//     ends mid-line is read again until the line is whole or the file stops changing
//     ([WholeLines]; a line cut by a crash is then read as it is).
//   - Nothing here reads process globals or prints. The one git run is kernel/journal's
//     replay of a dead run's journal, in the environment [BeginJournal] is given; a live
//     run's unstaging is the caller's ([Journal.Rollback]).
package storage
