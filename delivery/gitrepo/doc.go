// Package gitrepo is the delivery domain's git plumbing (corpus §2.4): it runs the git
// binary, finds the repository a directory is in, and reads HEAD and branch refs from
// their files.
//
//   - Running git: [Git] (Output, CommitPaths, CommitEmpty, Push, HasRemote,
//     WorktreeAdd/Remove/List, BranchExists, BranchDelete, Merge, Dirty, CurrentBranch);
//     [GitArgs] puts [GitGlobalArgs] (--no-optional-locks) before every subcommand.
//     A [Committer] makes CommitPaths' commit in-process (package gitcommit's, through
//     the native shell) and wraps [ErrUseGit] when git must make it.
//   - Discovery: [InWorkTree], [InWorkTreeEnv] and [MainCheckout] read the repository's
//     files and run `git rev-parse` only for the layouts and environments they leave to
//     git (gitdir.go); HEAD and branch refs are read from loose and packed refs the same
//     way (gitref.go).
//   - The call's environment: [LookupEnv], [WithEnv], [CallEnv], [EnvOf], [EnvironOf]
//     (env.go: which variables a native call's git gets).
//
// Package delivery builds a Git from its runtime (delivery.NewGit: the frozen clock, the
// runtime's environment, the in-process committer) and holds the §2.4 rule of a command
// (delivery.CommitArtifacts); this package knows no workspace or runtime.
//
// Invariants:
//
//   - Every git run passes --no-optional-locks first, so a read never rewrites
//     .git/index. Failures are GIT_ERROR *storage.Errors whose message is git's first
//     stderr line.
//   - Nothing here reads process globals: git runs in the Git's Environ, else the
//     environment the context carries, else (no call around it) the one it inherits;
//     discovery reads the same caller-given environment as its git fallback.
//   - File reads answer only where they give git's answer; anything else is left to git,
//     so a fallback costs time, never a different answer.
//   - A commit is journaled in the write journal of package storage: the paths to stage
//     before git add, the commit step before git commit, a durable point after it.
//   - [Git.WorktreeAdd] refuses a branch or base that begins with "-", which git would
//     read as an option.
package gitrepo
