// Package memory holds the memory and signal commands (mem:*), corpus §3.4, of the delivery
// legacy corpus: mem:init, mem:start, mem:ready, mem:checkpoint, mem:cleanup, mem:context,
// mem:create, mem:delete, mem:export, mem:inbox, mem:signal, mem:summarize, mem:triage and
// mem:recover.
//
// Each command is one file in the legacy style (see package convention): registration, a
// constructor returning a fresh *cli.App, an action, and its output types; it registers
// itself with commands.Register from init. The stores (memory.jsonl, relationships.jsonl,
// signals.jsonl, signal-receipts.jsonl, sessions/current.json) live in package delivery.
//
// Invariants:
//
//   - Read commands (mem:ready, mem:context, mem:export, mem:recover, mem:triage without
//     --promote/--archive, mem:inbox without --mark) never write a byte.
//   - Updates are appended versions (last line wins); only mem:cleanup rewrites
//     memory.jsonl, and it keeps lines it cannot parse verbatim.
//   - Lines that do not parse are reported as "[<command>] warning: <file> line <k>: …"
//     and skipped; the rest is still read.
//   - Memory state is runtime state and is never committed; the one commit is
//     mem:triage --promote's new WU (its YAML and the create event).
//   - Without --wu, commands whose --wu is optional take the WU and session from
//     .lumenflow/sessions/current.json when it exists.
package memory
