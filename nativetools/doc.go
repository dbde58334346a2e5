// Package nativetools is the registry of native tool implementations: Go functions that
// return a tool.Output directly, without running a legacy main.
//
// A native tool is built with [New] from a handler over a typed Input struct; its input
// schema is inferred from that struct with github.com/google/jsonschema-go (json tags give
// the property names, jsonschema tags the descriptions, omitempty marks optional fields),
// so the schema and the decoder can never disagree. Domain packages (nativetools/git,
// nativetools/worktree, …) register one tool per file from init, each file in the same
// order: Input struct, registration, handler, and named by the tool's stem
// (nativetools/<domain>/<tool.Stem(name)>.go, docs/architecture.md "Where a tool lives").
// nativetools/all blank-imports every domain.
//
// Invariants:
//
//   - One tool per canonical name: a duplicate registration, or two names that are the same
//     name spelled differently (tool.NewNames), is an error, never last-one-wins.
//   - A handler reaches the world only through its *tool.Env (workspace dir, clock, ids,
//     environment lookup, stdin, log). Native code never touches process globals
//     (os.Stdout, os.Stderr, os.Args, os.Exit, os.Getenv, os.Chdir, flag, log).
//   - [Tool.Bind] decodes the input (rejecting unknown fields) before anything runs, so
//     the kernel decodes in the caller's goroutine and runs the handler under the
//     deadline. [Raw] builds a tool from an explicit schema (test doubles, bridges).
//   - [Tool.Call] never panics out: a handler panic becomes an INTERNAL Output, and input
//     that does not decode into the Input struct becomes INVALID_INPUT.
//   - This package does no governance: the kernel decides whether a call may run.
package nativetools
