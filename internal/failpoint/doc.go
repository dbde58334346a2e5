// Package failpoint kills the process at a numbered step of a write, so that crash
// tests can stop a real writer at every point a kill -9 could and check what it left.
//
// A writer names each step it passes ([Hit]): the write journal reaching disk, each file
// written, each append, git add, the commit, the journal's removal. Nothing happens
// unless the process was started with one of two environment variables, read once when
// the process starts:
//
//   - CMDBRIDGE_FAILPOINT=N: the N-th step hit (counting from 1, every step name alike)
//     sends SIGKILL to the process itself, after tracing it;
//   - CMDBRIDGE_FAILPOINT_TRACE=<file>: every step hit is appended to the file as one
//     line, "<n> <step>", before anything else happens at that step.
//
// Invariants:
//
//   - With neither variable set, [Hit] is one load of a boolean: no system call, no lock.
//   - A kill happens after the step it names completed and before the next begins; the
//     trace line of the fatal step is on disk before the kill.
//   - Only tests set the variables; no production path sets or reads them otherwise.
package failpoint
