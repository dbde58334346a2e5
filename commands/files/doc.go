// Package files holds the legacy file and git-read commands of corpus §3.3 (file:read,
// file:write, file:edit, file:delete, git:branch, git:diff, git:log), one file per
// command; config:get and config:set are in package config.
//
// Every command file reads top-down in the same order: registration, flag table and
// constructor (newXApp), action, output types. The commands follow corpus §2 through
// commands/convention and keep their domain logic in package delivery.
//
// Invariants:
//
//   - A file command touches only paths that delivery.Confine accepts: inside the workspace
//     root (or the current directory when there is no workspace), symlinks resolved, and
//     never under .git/ for a write. After the check, file:read, file:write, file:edit and
//     file:delete operate only through an os.Root opened on the directory the path was
//     confined to (delivery.ConfineRoot), with the root-relative path: a symlink swapped
//     into the path after the check is refused (PATH_OUTSIDE_WORKSPACE), never followed
//     out. Writes are atomic and durable (storage.WriteFileAtomicIn: temp file, fsync,
//     rename, directory fsync).
//   - git:* pass --no-optional-locks, and git:diff runs on a scratch copy of the index,
//     so a read never rewrites .git/index (porcelain diff refreshes it otherwise).
//   - file:read and git:* never write anything (spec "RO"); no file command commits.
//   - Payloads are byte-exact: file:read and git:diff print exactly the bytes they read.
package files
