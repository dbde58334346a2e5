// Package kernel is the one governed path for every tool call, from every surface.
//
// [New] builds the tool registry from neutral descriptions of the tools' implementations
// (Config.Tools: one [Source] each, its kind, name, aliases, domain and spec), and
// [Kernel.Call] runs one call through the pipeline:
//
//  1. admit: call id, run id, caller identity and scopes (from the [Caller] the surface
//     authenticated, never from the input)
//  2. resolve any spelling to the canonical name → TOOL_NOT_FOUND
//  3. governance: excluded > unavailable (a command whose spec could not be derived)
//     > disabled > allowlist > outside the view → TOOL_DISABLED
//  4. validate: the request's stdin within Config.MaxStdin, then the input against the
//     tool's schema → INVALID_INPUT with the JSON pointer
//     of the failing value; a rule between properties (the schema's top-level
//     not.anyOf, tool.ApplyConstraints) is refused with the rule's own plain-word
//     description, the properties it names and the rule in the details
//  5. scope: declared path inputs resolved (cleaned, relative to the workspace, symlinks of
//     the deepest existing prefix resolved, dangling links followed) must lie in the
//     caller's scopes → SCOPE_DENIED
//  6. policy: first matching rule by priority → allow | deny (POLICY_DENIED) | ask,
//     judged on the call's effect (the tool's annotations narrowed by its declared
//     effects for this input: a dry run is read-only); ask waits for the approver (the
//     request's, else the configured one) only when the call is interactive
//     (APPROVAL_DENIED on a no or on the approval deadline); a non-interactive ask is
//     APPROVAL_REQUIRED at once — that branch has no code that could wait. Both
//     refusals name the deciding rule and carry a config.yaml policy that would allow
//     the tool
//  7. the receipt is opened (receipt id = call id, input hash, stdin hash)
//  8. dispatch to the routed lane under the call deadline → TIMEOUT, CANCELLED, or the
//     lane's Output (a lane that cannot run the call: EXECUTION_FAILED); a USAGE answer
//     keeps its code and is worded in property names, the command's words kept in
//     details.cli_message (docs/errors.md lists every code)
//  9. finalize: output hash, lane metadata, the receipt appended (group commit) before
//     the result is returned, then the OnResult hook.
//
// Workspace scope rule (decided here): every tool runs with the workspace as its
// directory. A tool that declares path inputs is checked on those paths only: read
// paths must lie in a read or write scope, write paths in a write scope (a tool that
// declares write paths is trusted to write nothing else but its own bookkeeping, such as
// .git for the git tools). A tool without declared paths works on the workspace at large:
// the workspace must lie in a read or write scope for a read-only call and in a write
// scope for any other; read-only is the call's effect ([tool.Spec.EffectOf]), so a
// writer's dry run needs a read scope only. A non-read-only call of a tool that declares
// only read paths needs the workspace in a write scope too.
//
// Batches ([Kernel.Batch], [Kernel.BatchFunc]) run in waves: a maximal run of contiguous
// parallel-safe calls runs concurrently (at most Config.MaxParallel at once), every other
// call runs alone. Adapter-lane calls additionally queue on the adapter's own lock. Calls
// writing the same resolved path never overlap, whichever surface they come from, and a
// call that may write (by its input's effect) and is not parallel-safe holds the
// workspace write lock (a file lock in the state directory, so it orders other kernels
// and processes on the repository too). Results are published in request order,
// exactly one per request; once the context is cancelled nothing new is dispatched and
// the rest get CANCELLED results (with receipts).
//
// Lanes run the calls dispatch hands them. The contract is package kernel/lane, which
// imports neither the kernel nor any lane: each lane is a [Lane] (a name, and Run of one
// resolved [LaneCall]: tool spec and route, input, directory, stdin, caller and its
// resolved scopes, the directories to hide, receipt id), and finds its implementation
// of the tool by the spec's name in its own registry. No lane lives in this package and
// it builds none: Config.Lanes is the complete set, at most one per name (adapter,
// subprocess, native, sandbox), and a call dispatched to a lane the kernel lacks fails
// with EXECUTION_FAILED. Package kernel/assemble is where hosts build a kernel: it
// describes the legacy registry (specs derived by the adapter) and the native registry
// as Sources, gives the native registry's routes as Config.BaseRoutes, builds the
// lanes from their packages (adapter.Lane for adapter and subprocess, native.Lane,
// sandbox.Lane) and plugs in the shadow decorator (Config.Shadow: package kernel/shadow's
// runs); this package imports neither adapter, tool/legacy, tool/native, kernel/sandbox
// nor kernel/shadow (nor parity/compare, the comparison the decorator makes). A
// lane, wherever it lives, leaves evidence for the receipt beside its Output only
// through LaneCall.Notes ([LaneNotes]: the shadow comparison, the sandbox it ran in, a
// tool's key/value notes).
//
// Routes (which lane serves a tool) are data: the defaults (commands → adapter,
// native-only tools → native), Config.BaseRoutes (the native registry's), and
// Config.Routes over them. "shadow" serves the adapter lane (the sandbox lane for a
// sandboxed tool) through a decorator that also runs the native lane on a copy of the
// workspace and records the differences in the receipt and [Kernel.ShadowStats]; the
// served result is always the primary lane's, and so are the receipt's notes (the run
// on the copy notes nothing there). The decorator is plugged in as the lanes are:
// Config.Shadow builds it ([Shadows], the contract's lane.Shadows: Lane(primary,
// secondary), Stats, Close) once from the state directory New finds, and the kernel
// decorates each unforced shadow-routed call's lane with it, reads ShadowStats from it
// and closes it in Close; kernel/assemble plugs in package kernel/shadow's (a directory
// kept per workspace, brought to its content before each run, compared with parity's
// normalisation). Without Config.Shadow, or without a native lane, a shadow-routed tool
// fails New: a shadow route is a promise of evidence (promotion is judged on its
// receipts), so it is never served without its comparison. Request.Lane forces a lane
// for one call (no shadow then); a tool listed in Config.Sandboxed runs on the sandbox
// lane whatever its route, and forcing another lane is refused.
//
// Hosts build a Config in code or from a workspace's .cmdbridge/config.yaml
// ([LoadFileConfig], [FileConfig.Apply]).
// Config.View narrows a kernel to a profile ([Profile]: a named tool subset from
// Config.Profiles or [BuiltinProfiles]) and/or tool patterns, intersected; tools outside
// it are hidden from [Kernel.Tools] and the manifest and refused when called. A view
// whose patterns match nothing, or whose profile requires a tool that is missing, left
// out or refused by governance, fails [New].
// [Kernel.Manifest] is the deterministic JSON description of every visible tool, and
// docs/tools.md is generated from the same data by `go generate ./commands`.
//
// Invariants:
//
//   - Every call ends in exactly one terminal state of the call state machine ([Next]),
//     returns exactly one [Result], and appends exactly one evidence receipt, refusals
//     included.
//   - Duplicate or reserved tool names fail [New]; nothing is last-one-wins.
//   - Governance, policy and scope use the canonical name only ([tool.Names]).
//   - The kernel never reads process globals on a call's behalf: it reads the
//     environment through Config.LookupEnv, and native handlers get the tool.Env their
//     lane builds from what the host gave it (native.LaneEnv).
//   - A call's stdin is Request.Stdin and nothing else (never the host's own stdin),
//     bounded before anything runs, the same bytes on every lane (tool.Env.Stdin, the
//     adapter's and the subprocess's descriptor 0, the sandbox request), and hashed
//     into the receipt (stdin_hash).
//   - The workspace's own state (evidence, keys, outbox) lives in its state directory
//     ([Kernel.State], kernel/statedir), outside the work tree in a repository; no path
//     input of any caller reaches it or the repository's .git, no write path reaches
//     the workspace's .cmdbridge configuration, and the sandbox lane hides it. "Reaches"
//     is judged by path and by identity (device and inode): a hard link to one of their
//     files, or an alias (bind mount) of one of those directories, is refused as the
//     original is.
//   - Whatever a call spawns for workspace code (gates, wu:sandbox's command), on any
//     lane, runs in the kernel's jail ([Kernel.Jail], proctree.Jail): the state and
//     evidence directories are empty there, .git and .cmdbridge read-only, and no
//     process outside the tree is visible; without bubblewrap it does not run, unless
//     Config.UnconfinedWorkspaceCode. The default policy asks before such calls
//     (effect runs_code).
//   - The caller's subject reaches every lane: tool.Env.Caller for native tools,
//     CMDBRIDGE_CALLER (tool.CallerEnv) in the environment of legacy commands; a tool
//     records who did something from it, never from a name in its input.
//   - A call refuses to run when its receipt could not be recorded (the evidence log
//     failed, or its files were replaced or removed under it).
package kernel
