// Package evidence is the kernel's append-only receipt log: one JSON line per terminal
// tool call, hash-chained, with the record hashes folded into a transparency-log tree
// (golang.org/x/mod/sumdb/tlog) whose roots are signed as Ed25519 notes
// (golang.org/x/mod/sumdb/note) every N records and when the log is closed.
//
// Files in the evidence directory (default <workspace>/.cmdbridge/evidence):
//
//	receipts.jsonl     one receipt per line; "hash" is the last field of every line
//	checkpoints.jsonl  {"n": records covered, "root": tree hash, "note": signed note}
//	signing.key        the note signer key, created on first use with mode 0600
//	verifier.key       the matching verifier key, read by [Verify]
//
// A record's hash is tlog.RecordHash of its line with the trailing ,"hash":"…" member
// removed; that content includes seq and prev_hash, so the hashes form a chain and are the
// tree's leaves at the same time.
//
// Invariants:
//
//   - Append returns only after the receipt is written (and, in [SyncGroup] mode, after
//     the fdatasync that covers it). Concurrent appenders share one write and one sync
//     (group commit): a leader takes every queued receipt, assigns seq, prev_hash and hash
//     in queue order, writes them with one write call and syncs once.
//   - The log is only ever appended to. Writers in several processes serialise on a
//     file lock of receipts.jsonl (lockedfile) and first catch up on records others
//     appended, so the chain stays linear.
//   - [Verify] never modifies anything. It names the first bad record and the kind of
//     damage: edited (content no longer matches its hash or the chain), deleted (a seq is
//     missing), reordered (seqs out of order), truncated (fewer records than a signed
//     checkpoint covers), a checkpoint whose signature or root does not match, records no
//     valid checkpoint covers (uncovered), or a missing or untrusted verifier key.
//     [VerifyWith] also holds the log to checkpoints kept elsewhere (a witness file) and
//     to a verifier key the operator trusts.
//   - A log never appends to a file its path no longer names: [Log.Err] checks that
//     receipts.jsonl and checkpoints.jsonl are the files it opened, and every write
//     that the file it locks (by path) is the one it appends to and did not shrink;
//     otherwise the log fails and the kernel refuses calls.
//   - A quiet log is covered: a checkpoint is signed CheckpointIdle after the last append
//     when records are uncovered, and every checkpoint also goes to the witness file.
//   - A line a crash left torn is never extended: Open terminates it, writers skip it, and
//     Verify reports it as malformed while the chain continues from the last good record.
//   - The signing key lives next to the log: checkpoints prove the log was not changed
//     after the fact by anyone without that key, not by the key's holder; the witness
//     file and the trusted key are what hold against the key's holder.
package evidence
