// Package demo holds the native implementations of the demo domain's tools, one file per
// tool in the same order: Input struct, registration, handler. Each registers into
// tools.Register from init.
//
// Invariants: an Input's schema equals the legacy command's adapter schema (each tool's test
// checks it); handlers reach the world only through their *tool.Env and never touch
// process globals.
package demo
