// Package tool is the contract every lane and every surface of cmdbridge shares.
//
// A tool is a named operation with a JSON input and a [Output]. Its [Spec] describes it:
// the canonical name, an input JSON Schema (2020-12, an object with
// additionalProperties false), MCP annotations (the worst case over every input), the
// effects that narrow them for given inputs ([Effect]: a dry run is read-only), which input
// fields are paths and how they are used, network need, timeouts, whether calls may run in parallel, and the approvals
// the call needs.
//
// Invariants:
//
//   - Every lane (adapter, subprocess, native, sandbox) returns an [Output]; every surface
//     (CLI, HTTP, MCP) serialises the same [Output]. Success carries data; failure carries
//     an [Error] whose Code is an UPPER_SNAKE string from the closed set in codes.go.
//   - Output.Metadata carries facts about the lane that served the call (lane, exit code,
//     duration, stderr excerpt, truncation). Parity never compares it.
//   - A tool has exactly one canonical name: the command name (wu:create). [Key] folds
//     every spelling of a name (wu:create, wu_create, wu-create, WuCreate,
//     software-delivery:wu_create) to one lookup key, and a [Names] table built from the
//     canonical names maps a key back to its name; two canonical names with the same key
//     are an error when the table is built, never last-one-wins. [MCPName] is the
//     MCP-safe spelling (":" and "-" become "_").
//   - Input property names are flag names with "-" replaced by "_" ([PropertyName]);
//     [FlagName] is the inverse. The schema, the argv builder and codegen all use these
//     two functions and nothing else.
//   - Rules between input properties ([Constraint]: required, any_of, exclusive,
//     requires, together) live in the input schema, written by [ApplyConstraints]:
//     required ones in "required", every other rule as one schema matching exactly the
//     inputs that break it, described by [Constraint.Message], under the top-level
//     "not": {"anyOf": [...]}. A schema never has a top-level anyOf, allOf or oneOf
//     (hosts refuse them). A property counts as given as for [IsSet].
//   - Native handlers have the signature func(ctx, *Env, Input) Output and reach the world
//     only through [Env]: workspace dir, clock, id source, environment lookup, stdin, a log
//     writer and whether a person can answer. They never touch process globals.
package tool
