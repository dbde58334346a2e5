// Package wu holds the native implementations of the wu domain's tools (wu:status,
// wu:validate, wu:create, wu:claim, wu:block, wu:unblock, wu:brief, wu:infer-lane,
// wu:preflight, wu:release, wu:delete, wu:unlock-lane, wu:edit), one file per tool in
// the same order: Input struct, registration, handler. Each registers into
// nativetools.Default from init.
//
// A handler is the legacy command's shell around the same delivery/ops operation, minus
// the printing: the runtime from the call's environment, then the workspace
// (NO_WORKSPACE, CONFIG_INVALID), then the operation. The command's argv-phase checks
// (malformed values, missing required flags, combination rules) are the input schema's
// keywords: the kernel's schema validator refuses such input (INVALID_INPUT) before any
// lane runs, so handlers do not repeat them. A handler keeps only an argv check a schema
// cannot state, or that the adapter's schema does not carry, and says so.
//
// Invariants:
//
//   - An Input's schema equals the legacy command's adapter schema (patterns, enums,
//     ranges and rules included; nativetools/all checks every twin). Fields are
//     pointers where the handler must tell an empty value apart from an absent one.
//   - Error precedence is the command's: a USAGE problem the handler still checks is
//     reported before the workspace is looked for.
//   - Data is the operation's data unchanged (the command's --json data; a check's
//     CHECK_FAILED carries it too, as the command's failure envelope does), errors carry
//     the command's codes, and warnings are listed in metadata["warnings"] (always a
//     list, on failure too), as the adapter maps the envelope.
//   - Handlers reach the world only through their *tool.Env: they never print and never
//     touch process globals. Git runs with the call's git variables (delivery.NewGit
//     takes them from the runtime), not the host's.
package wu
