// Package delegation holds the native-only delegation:record tool of corpus §4.
//
// Invariants: a record is appended (never rewritten) to the delegation registry
// (§1.13) with a dlg- id drawn from the §2.5 rand_hex source and redrawn on collision,
// and the matching delegation event is appended to the target WU's event log. Both
// appends go through delivery's JSONL store; nothing is committed.
package delegation
