// Package proctree ends a command's whole process tree with the call that started it:
// the command, its process group, and the descendants that left the group, double-forked
// `setsid … &` daemons that ignore SIGTERM included.
//
// Usage: [Attach] an *exec.Cmd before starting it, run it, then call [Tree.Kill]
// whatever the outcome. Attach puts the command in its own process group, marks it
// and installs a Cancel that kills the tree when the command's context ends (timeout
// or cancellation).
//
// Design. A process group is not enough: setsid(2) leaves it, and a double fork
// reparents the daemon to init (or the nearest subreaper), so neither the group nor the
// parent links find it any more. Every tree therefore carries a mark: a variable
// CMDBRIDGE_PROCTREE_<random>=1 added to the command's environment, which every
// descendant inherits across fork, exec, setsid and reparenting. [Tree.Kill]
//
//  1. reads from /proc the descendants of the command (parent links, which catch a
//     child that cleared its environment but did not escape the parent chain yet),
//  2. SIGKILLs the process group (all at once: no shell of it survives to print
//     "Killed" for a child),
//  3. SIGKILLs those descendants, then every process whose /proc/<pid>/environ carries
//     the mark, addressed through a pidfd opened before the environment is read, so a
//     recycled pid is never signalled,
//
// and repeats the scan until it finds no marked process alive (a process being killed
// may have forked a moment before; SIGKILL cannot be ignored, so this converges).
// Marks nest: a tree started inside another (a gate run by `delivery` on the subprocess
// lane) carries both marks, so killing the outer tree kills the inner one too.
//
// Why not a child subreaper or a cgroup: PR_SET_CHILD_SUBREAPER is an attribute of the
// whole process, and the adapter lane runs commands inside a long-lived host (cmdbridge
// serve, mcp) with calls in flight at the same time; adopted orphans of every call would
// land on the host, which would have to reap pids it did not start. A cgroup is exact but
// needs a delegated cgroup v2 subtree, which containers and CI runners rarely grant. The
// mark needs neither and works unprivileged.
//
// Invariants:
//   - Kill never signals a process outside the tree: only the group the command leads,
//     its descendants found through parent links while it is alive, and processes
//     carrying this tree's random mark.
//   - After Kill returns, no process of the tree that kept the mark is alive. A process
//     that both cleared its environment and escaped the group and its parent
//     (env -i setsid … &) is out of reach; the sandbox lane (bwrap with
//     --die-with-parent and a PID namespace) covers that case.
//   - Linux only: it reads /proc and uses pidfd_open(2) (Linux 5.3+), falling back to
//     kill(2) by pid when pidfds are unavailable.
package proctree
