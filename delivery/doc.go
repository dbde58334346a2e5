// Package delivery is the software-delivery domain shared by the legacy `delivery`
// commands and the native tools: it reads and writes the workspace files of
// shared/spec/commands.md §1 and applies the conventions of §2.4–§2.5.
//
// Entry points, in the order a command uses them:
//
//   - Workspace: [Open] (or [FindRoot] + [Load]) resolves the root (§1.1:
//     $DELIVERY_WORKSPACE, nearest workspace.yaml, linked worktree → main checkout) and
//     parses workspace.yaml into a [Config] with every §1.2 default. Wrong types do not fail
//     the load: they are kept in Config.Problems and a command that reads a key calls
//     [Config.Check] with the key prefix to get the CONFIG_INVALID error.
//   - Storage: subpackage storage keeps the files: YAML nodes and the one §1.14 encoder
//     ([storage.DecodeYAML], [storage.EncodeYAML], [storage.MapGet], [storage.MapSet]…),
//     atomic writes ([storage.WriteFileAtomic], [storage.WriteFileAtomicIn]), JSONL stores
//     ([storage.AppendJSONL], [storage.ReadRecords], [storage.RewriteJSONL]), the lock of
//     a path ([storage.LockPath]) and the write journal ([storage.Journal]).
//   - Files: [Confine] (§3.3 path confinement), [ConfineRoot] (the same, plus the
//     os.Root the path must then be used through, [RootError] mapping its escapes to
//     PATH_OUTSIDE_WORKSPACE).
//   - Lanes: [Kebab], [WorktreePath], [LaneBranch], [ParseLaneBranch], [LockRel], [Title60].
//   - Stamps (§1.10): [StampRel], [WriteStamp], [StampExists], [StampDate], [StampIDs].
//   - Runtime (§2.5): [NewRuntime] validates DELIVERY_NOW, DELIVERY_WORKSPACE and
//     STALE_LOCK_THRESHOLD_HOURS (USAGE "invalid environment variable <NAME>: <reason>"),
//     gives [Runtime.Now] (frozen by DELIVERY_NOW), [Runtime.Hex] (rand_hex, the
//     tool.IDSource), [Runtime.Owner] and [Runtime.StaleThreshold]. [NewID] formats
//     sig-/dlg-/uuid ids from any tool.IDSource and redraws on a store collision.
//     [Timestamp] and [Date] are the §1.14 formats.
//   - WU specs (§1.5): [ReadWU], [ParseWU], [ListWUs], [NewWU], [WriteWU], [NextWUID],
//     [NormalizeStatus], [CanTransition], [CheckTransition], [ValidateStructure],
//     [ValidateStrict]. A [WU] keeps its YAML document: edit with Set/Delete, then Refresh.
//   - Event log (§1.7): [LoadEvents] (replay, per-line warnings, invalid lines),
//     [AppendEvents], [RewriteEvents], [Consistent], [ReconcileTarget]. [EventLog.For] and
//     [EventLog.State] read a per-WU index built once per log, so whole-workspace
//     commands stay linear in WUs + events.
//   - Git (§2.4): subpackage gitrepo runs git and reads repositories ([gitrepo.Git]:
//     CommitPaths, Push, WorktreeAdd/Remove/List, BranchExists, BranchDelete, Merge,
//     Dirty, CurrentBranch; [gitrepo.InWorkTree], [gitrepo.MainCheckout],
//     [gitrepo.Commit] ({sha, subject, pushed})). Here: [NewGit], a Git in the runtime's
//     environment ([Runtime.Environ]) and clock, with its in-process committer,
//     [Runtime.InWorkTree], and [CommitArtifacts] (the whole §2.4 rule for a command).
//     Git runs in the call's environment: the runtime's, else the context's
//     ([gitrepo.WithEnv]; see gitrepo's env.go for what a native call's git gets).
//   - Gates (§1.2, §1.12): [SelectGates], [RunGates], [LaneOfBranch], [GateResult].
//   - Initiatives (§1.6): [ListInitiatives], [ResolveInitiative], [NextInitiativeID],
//     [InitiativeWUs] (one initiative) or [NewMembershipIndex] (many), [DerivedStatus],
//     [WriteInitiative]. Board: [BuildBoard]. Lanes and their sub-lanes: [IsSubLane].
//   - How these rules read real, mature data (closed WUs, sub-lanes, date-only
//     completions, listed WUs whose spec is gone, orphan stamps) is docs/real-data.md;
//     commands/commandstest/wsgen writes such workspaces, at any scale, for tests and
//     benchmarks.
//   - Lane locks live in the subpackage lanelock.
//   - Warm reads: a [Workspace] whose Source is set (the warm index of a long-lived host,
//     subpackage wsindex) serves ReadWU, ListWUs, ListInitiatives, [Workspace.Events],
//     [Workspace.Memory] and [Workspace.Signals] from memory, validated on every call;
//     legacy runs never set it.
//   - Write journal: [Runtime.Journal] and [Runtime.EndJournal] (package storage's
//     [storage.Journal], its rollback unstaging through git here): a
//     command run that fails after it started writing leaves the workspace as it found it
//     (see below).
//
// Errors: every failure a command reports is an [*Error] carrying a tool.Code* code;
// [CodeOf], [AsError] and [ToolError] read it. USAGE maps to exit 2, every other code to 1.
//
// Invariants:
//
//   - Nothing here reads process globals: the environment comes in as a
//     [gitrepo.LookupEnv] (a [Runtime]'s, or a context's: [gitrepo.WithEnv], a native
//     call's tool.Env), the directory as
//     an argument, so native tools (tool.Env) and legacy commands (os.LookupEnv,
//     os.Environ, os.Getwd) share every function. Git discovery included: discovery and
//     the git it falls back to see the same, caller-given environment. The subprocesses
//     (git, gates) get the caller's environment, never one read here; only a run on a
//     context that carries none lets git inherit the process's (a legacy helper outside
//     any call). bridgecheck's nativeglobals fact enforces this for the native lane.
//   - YAML edits (package storage's) change only the nodes they touch; unknown keys and
//     comments survive, new keys are appended at the end of their mapping.
//   - Files are replaced atomically and durably (package storage's writes: temp file,
//     fsync, rename, directory fsync; mode kept); nothing here prints.
//   - A failed run rolls back its own writes. Each run (a legacy command: the convention
//     begins the journal when the command opens its workspace and ends it on the action's
//     result; a native tool: native.Journaled around the operation) has one
//     [storage.Journal] on its [Runtime], registered under the workspace root. Every write
//     helper ([storage.WriteFileAtomic], [storage.WriteFileAtomicIn],
//     [storage.AppendJSONL]/[storage.AppendLines] and the stores built on them,
//     [storage.RewriteLines], [RemoveSession], [InitMemory], the signal and incident
//     appends, lanelock's Acquire/Release) records the path's pre-image before its first
//     write in the run — absent, content and mode, or for an append-only log its size — and
//     the commands' own os.Remove/MkdirAll sites call [storage.JournalWrite] /
//     [storage.JournalMkdir]. On failure the records are restored newest first (created
//     files removed, rewritten ones put back through the atomic write, logs truncated,
//     created directories removed when empty) and the paths the §2.4 commit staged are reset
//     to HEAD's index entries; on success the journal is discarded. A successful commit is a
//     durable point: what it recorded is never undone. .git is never journaled. Gate
//     telemetry is the one record a failed run keeps ([storage.KeepJSONL]). A journal is
//     found by path (the longest registered root holding it), so no write signature carries
//     it; one journal is active per root in a process (a concurrent second run on the same
//     root gets an inert journal and its writes land in the first's).
//   - A killed run is rolled back by the next. Every record reaches disk (package
//     kernel/journal: the worktree's git directory, fdatasync'd) before the write it
//     protects, the paths to stage before git add, and beginning a journal takes the
//     worktree's journal lock (a flock held until the journal is removed) and replays what a
//     dead run left, before the run reads anything. A replay that finds the commit step
//     journaled and HEAD moved keeps the committed state. [storage.JournalWrite],
//     [storage.JournalAppend] and [storage.JournalMkdir] return the error of a record that
//     could not reach disk: the write must not happen.
package delivery
