// Package gitcommit makes, inside the calling process, the commit that
//
//	git add -A -- <paths>
//	git diff --cached --quiet -- <paths>   (nothing to commit when it exits 0)
//	git -c commit.gpgsign=false commit --no-verify -q -m <message> -- <paths>
//
// would make, byte for byte: the same blobs, trees and commit object (so commits with
// pinned dates have the same SHA as git's), the same reflog lines, the index updated
// as git updates it (the changed paths' entries and stat data; the cache-tree
// invalidated along them), loose objects written as git writes them, and the index and
// ref locks taken the way git takes them, so that a git process running beside it sees
// a repository git could have left. It reads objects through go-git
// (github.com/go-git/go-git/v5 storage, packs included) and does the rest itself: go-git's
// own commit path writes no reflog, drops the index's cache-tree and flags, and updates
// refs without git's lock files.
//
// It handles what a repository made by `git init` and used by git's porcelain holds;
// for anything else [Open] or [Repo.Prepare] return an [*Unsupported] error, before
// anything is written, that names what it met, and the caller runs git instead. That
// covers the environment (GIT_DIR, GIT_INDEX_FILE, identity variables… anything but the
// configuration, date, transport and diagnostics variables), the repository format
// (SHA-256 objects, reftable or any extension but worktreeConfig, alternates, a bare repository,
// core.worktree), what changes the bytes git writes (attributes and filters, CRLF
// conversion, core.fileMode or core.symlinks off, commit.cleanup, a commit encoding, an
// identity from author.*/committer.* or from the password file), the index (version
// 4, split or sparse index, skip-hash, unmerged entries, assume-unchanged,
// skip-worktree and intent-to-add paths), hooks that still run under --no-verify
// (prepare-commit-msg, post-commit, post-index-change, reference-transaction) and the
// hook.* configuration, includes in the configuration, a detached or unborn HEAD, a
// repository owned by another user (git's safe.directory check), and paths git would
// refuse or treat specially (directories, submodules, paths beyond a symbolic link,
// ignored new files).
//
// A long-lived process gives its commits a [Cache] ([Repo.UseCache]): the index file as
// the last commit wrote it, parsed, known by its size and checksum (an index another
// writer replaced has another checksum and is read again), and the deflated pieces of
// large objects, so that an append-only log or a large directory's tree is deflated
// only where it changed (the object and its name are git's; the zlib stream is cut at
// every 16 KiB of content, which git and any inflater read as one stream). Trees are
// kept parsed by name in any case.
//
// The system configuration is read from /etc/gitconfig (GIT_CONFIG_SYSTEM when set,
// none with GIT_CONFIG_NOSYSTEM), where Debian's and most distributions' git keep it; a git
// built with another prefix reads its own file, which this package does not know of.
//
// Invariants:
//   - Nothing is written before every Unsupported case has been ruled out, except
//     loose objects (which git's own failed commands leave too).
//   - The index and the ref are replaced only under their .lock files, created
//     exclusively as git creates them; a lock that exists is an error, as in git.
//   - A Cache holds only what the files it describes say: the index it keeps is the one
//     written (its cache-tree invalidated as written), and a piece is used only for
//     content equal to the content it was made from.
//   - After a commit, `git maintenance run --auto` runs when git's own threshold (loose
//     objects, packs) says it would, unless maintenance.auto or gc.auto turn it off.
package gitcommit
