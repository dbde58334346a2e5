// Package git holds the native-only git tools of corpus §4: git:status (read-only),
// git:add and git:commit. Each file is one tool: Input struct, registration, handler.
//
// Invariants: the tools run git in the workspace root (or the enclosing repository when
// there is no workspace), never run `git init`, never push, confine every path input to
// the workspace (§3.3, no writes under .git), and commit through delivery's §2.4 rules
// (identity fallback, DELIVERY_NOW dates, --no-verify, no gpg). git:status writes
// nothing.
package git
