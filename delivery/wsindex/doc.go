// Package wsindex is the warm workspace index of the delivery corpus: the parsed
// workspace.yaml, WU specs, initiatives, event log, and memory and signal stores of one
// workspace root, held in memory by a long-lived host (serve, mcp, a batch) so that
// native read tools stop re-reading and re-parsing the world on every call. A legacy main
// keeps process semantics and never sees it; a one-shot call does not build one.
//
// [New] makes the index of a root (nothing is read until asked); [Index.Workspace] opens
// the workspace for one call with a [delivery.Source] that serves [delivery.ReadWU],
// [delivery.ListWUs], [delivery.ListInitiatives], [delivery.Workspace.Events],
// [delivery.Workspace.Memory] and [delivery.Workspace.Signals] from memory (a JSONL store
// that only grew since it was read is decoded from its appended lines alone);
// [Index.Refresh] brings every cached entry up to date after a native tool wrote;
// [Index.Close] stops the watcher.
//
// Invariants:
//
//   - Never stale. Every access validates exactly what its answer depends on (the file,
//     or the directory and every file of a listing) before answering, by the barrier
//     below when the watcher runs, else against the disk:
//     the identity and size of the file (device, inode, size) and its change times
//     (mtime, ctime). A change by anyone — a person editing YAML, git checkout, a legacy
//     command, another process — is seen on the very next call, watcher or not.
//   - The racy rule. Times have a granularity (the kernel's coarse clock ticks every few
//     milliseconds; some filesystems keep seconds), so an edit that keeps the size and
//     lands in the same tick as the read before it would keep the signature. An entry is
//     trusted on its signature only when the clock read before it was stat'ed and read is
//     more than Options.RacyWindow (default 2 s) past the entry's mtime and ctime, and its
//     signature did not move while it was read; any later write then gets a later time.
//     An untrusted entry is re-read on every access and compared byte for byte (parsing
//     again only when the bytes differ) until a read qualifies. A time in the future is
//     never trusted. ctime cannot be set by user code, so a back-dated mtime (touch -d,
//     tar, a tool restoring times) still shows. The rule assumes the filesystem's clock
//     and Options.Now agree within the window (a local filesystem; a clock stepped back
//     by more than the window could hide one edit until the file changes again).
//   - The watcher (github.com/fsnotify/fsnotify, the directories read so far) adds
//     suspicion: a path it reports is re-read on its next access whatever its signature
//     says. A watcher error or a dropped-events overflow means every entry is re-read on
//     its next access (a rescan); a watcher that cannot start leaves validation alone,
//     which is enough to be correct.
//   - The barrier replaces the stat per file when the watcher runs. One inotify instance
//     queues its events in the order the changes happened, across all its directories.
//     Each call first creates a numbered file in a private directory the same watcher
//     watches and waits until that file's event was handled: every change made before
//     the call began has then been handled too. An entry read after the watch on its
//     directory was in place ("covered") is then valid as long as no event made it
//     suspect and no rescan happened, with no stat. What inotify cannot see is checked
//     per call: the identity (device, inode) of every watched directory and of its
//     ancestors up to the root, so a directory replaced as a whole (renamed away, an
//     ancestor moved) orders a rescan. A call whose barrier is not handled within
//     Options.BarrierTimeout, or an index without a watcher, validates by stat as above.
//     Assumed: changes reach the files through the watched directories (inotify does
//     not report a write through a hard link in another directory, an mmap'ed write, or
//     a change made on another machine of a network filesystem).
//   - Values handed out are shared between calls and must not be changed: a workspace
//     with a Source is for reading tools (see delivery.Source); a writer's source
//     ([Index.WriterSource]) hands out private copies of the WUs and initiatives it may
//     change, and takes the barrier again before every answer, so a writer reads back
//     its own earlier writes. Entries are replaced, never mutated, so a call keeps a consistent value
//     while another refreshes. [Index.Verify] and Options.Check find a value changed in
//     place.
//   - Only what exists is cached. A missing file, stamps and lane locks are asked of the
//     disk each time: answering them is one failed open, one stat or one small read,
//     which is what validating a cached answer would cost (and ids that name no file
//     cannot grow the cache).
package wsindex
