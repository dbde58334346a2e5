// Package statedir says where cmdbridge keeps a workspace's own state — the evidence
// log and its keys, the event outbox, the token key, parity results — so that it lives
// where git never sees it and every worktree of one repository shares it.
//
// [Find] picks the place:
//
//  1. CMDBRIDGE_STATE_DIR, when set, is the state directory itself;
//  2. in a git repository, <git common dir>/cmdbridge: the common dir is shared by the
//     main checkout and every linked worktree, and git never tracks anything under it;
//  3. elsewhere, <workspace>/.cmdbridge: outside a repository nothing can commit it, and
//     once the workspace becomes a repository, [Migrate] moves it under the common dir.
//
// The repository is found by reading files (a .git directory, or a .git file naming
// the gitdir, whose commondir file names the common dir), never by running git.
//
// [Migrate] moves what an older cmdbridge kept in <workspace>/.cmdbridge (evidence,
// events, token.key, parity) into the state directory once, on first start;
// .cmdbridge/config.yaml stays where it is: it is the user's configuration, not state.
//
// Invariants:
//
//   - Find never creates anything; [Dir.Ensure] creates the state directory with mode
//     0700 when a writer needs it.
//   - [Dir.Protected] lists every place a tool's path input must never reach: the state
//     directory, the worktree's .git (file or directory), its gitdir and the common dir.
//   - Migrate never overwrites: an entry already present in the state directory stays,
//     and the old copy is left in place and reported.
package statedir
