// Package worktree holds the native-only worktree tools of corpus §4: worktree:list
// (read-only), worktree:create and worktree:remove. Each file is one tool: Input struct,
// registration, handler.
//
// Invariants: paths in inputs and outputs are relative to the workspace root; a created
// worktree lies under the configured worktrees directory; a dirty worktree is removed
// only with force; nothing here pushes or initialises a repository.
package worktree
