// Package memory holds the native implementations of the memory domain's tools, one file per
// tool in the same order: Input struct, registration, handler. Each registers into
// nativetools.Default from init.
//
// Each handler is shell.Serve around its operation in delivery/ops: reads through the
// host's warm index, writers from the disk in the call's write journal, and the writers
// that only append new nodes (mem:checkpoint, mem:create, mem:start) through the index as
// well (shell.Op.Append). The kernel has validated the input against the schema before the
// handler runs (parity too, in front of every lane), so a handler checks only what a
// schema cannot state, each such check saying why.
//
// Invariants: an Input's schema equals the legacy command's adapter schema
// (nativetools/all checks it); handlers reach the world only through their *tool.Env and
// never touch process globals.
package memory
