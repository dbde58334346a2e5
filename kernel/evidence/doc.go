// Package evidence is the kernel's append-only receipt log: one JSON line per terminal
// tool call, each authenticated with a MAC under the log's key and hash-chained, the
// record hashes the leaves of a transparency-log tree (golang.org/x/mod/sumdb/tlog) whose
// heads are signed as Ed25519 notes (golang.org/x/mod/sumdb/note) every N records, after
// a quiet second and when the log is closed; the heads also go to a witness file and to
// whoever keeps them elsewhere (Config.OnCheckpoint: the control plane).
//
// Files in the evidence directory (default <state dir>/evidence):
//
//	receipts.jsonl     one receipt per line, ending ,"mac":"…","hash":"…"}
//	checkpoints.jsonl  {"n": records covered, "root": tree hash, "note": signed note}
//	signing.key        the note signer key, created on first use with mode 0600
//	verifier.key       the matching verifier key, read by [Verify]
//
// A record's hash is tlog.RecordHash of its line without its trailing mac and hash
// members; that content includes seq and prev_hash, so the hashes form a chain and are
// the tree's leaves at the same time. Its MAC is HMAC-SHA256 of that hash under a key
// derived from signing.key: every process of the workspace reads the same key, so a
// sibling's records authenticate; a line anyone else appends does not.
//
// Invariants:
//
//   - Append returns only after the receipt is written (and, in [SyncGroup] mode, after
//     the fdatasync that covers it). Concurrent appenders share one write and one sync
//     (group commit): a leader takes every queued receipt, assigns seq, prev_hash, hash
//     and MAC in queue order, writes them with one write call and syncs once.
//   - The log is only ever appended to. Writers in several processes serialise on a
//     file lock of receipts.jsonl (lockedfile) and first catch up on records others
//     appended, so the chain stays linear.
//   - A writer folds in only records it can authenticate: a valid MAC and the next
//     place in the chain (seq, prev_hash). A line without them (forged, edited, copied)
//     or a file shorter than what the writer read (truncated, emptied) fails the log
//     with an error wrapping [ErrTampered], and the kernel refuses every call from
//     then on. [Log.Err], asked before every call, folds in whatever was appended
//     since, so the call that would follow tampering is refused before it runs.
//   - A log never signs over what it could not authenticate. On tampering it signs
//     the head it can vouch for (its own records and the ones it authenticated), so the
//     damage shows against that head, the witness and the control plane; then it only
//     refuses. The receipts of calls that already ran are still written (after what is
//     left, continuing its own chain): a call that committed keeps its receipt.
//   - Open holds the log to the largest signed head of checkpoints.jsonl and of the
//     witness file: a log that holds fewer records, or other ones, or any line that does
//     not authenticate, opens refusing (Err wraps ErrTampered) instead of recording.
//     Records written before records had a MAC are accepted when a signed head covers
//     them.
//   - A log never appends to a file its path no longer names: [Log.Err] checks that
//     receipts.jsonl and checkpoints.jsonl are the files it opened, and every write that
//     the file it locks (by path) is the one it appends to.
//   - [Verify] never modifies anything. It names the first bad record and the kind of
//     damage: edited, deleted, reordered, truncated (fewer records than a signed head
//     covers), forged (no valid MAC, when signing.key is readable), a checkpoint whose
//     signature or root does not match, records no valid checkpoint covers (uncovered),
//     a missing or untrusted verifier key, and heads kept elsewhere (the witness file,
//     the control plane's export) that the log no longer holds: each is checked with a
//     tlog consistency proof against the log's own head, and must still be among its
//     checkpoints (rewound).
//   - The signing key lives next to the log: MACs and checkpoints prove the log was not
//     changed by anyone without that key, not by the key's holder; the witness file,
//     the control plane's heads and the trusted key are what hold against the key's
//     holder (and against a rewind of the records and checkpoints together).
package evidence
