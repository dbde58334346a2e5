// Package proctree ends a command's whole process tree with the call that started it:
// the command, its process group, and the descendants that left the group, double-forked
// `setsid … &` daemons that ignore SIGTERM included (and, where the host offers cgroup
// v2, those that also cleared their environment). A [Jail] runs a command where the
// host's secrets are not visible (bubblewrap), for the code a workspace defines.
//
// Usage: [Attach] an *exec.Cmd before starting it, run it, then call [Tree.Kill]
// whatever the outcome. Attach puts the command in its own cgroup (when the host offers
// one) and process group, marks it and installs a Cancel that kills the tree when the
// command's context ends (timeout or cancellation).
//
// Design. A process group is not enough: setsid(2) leaves it, and a double fork
// reparents the daemon to init (or the nearest subreaper), so neither the group nor the
// parent links find it any more; a daemon that also clears its environment
// (`setsid env -i …`) carries no mark either. Only a cgroup holds every process a
// command ever forks, whatever it does short of writing to the cgroup hierarchy.
//
// With cgroup v2 (a cgroup2 mount holding this process, see [Cgroup2Dir], where a child
// cgroup can be made: root, or a delegated subtree), every tree gets its own cgroup
// cmdbridge-tree-<random> below the host's, and the command is started directly inside
// it (clone3 CLONE_INTO_CGROUP: no window in which a fork escapes). [Tree.Kill] writes
// cgroup.kill (Linux 5.14+; older kernels: cgroup.freeze, SIGKILL to every listed
// process, thaw), waits until cgroup.events says the cgroup is empty, and removes it
// with any child cgroups (a tree started inside another tree, such as a gate run by
// `delivery` on the subprocess lane, nests its cgroup in the outer one, so killing the
// outer one kills both). Signals go to the cgroup, not to pids, so a recycled pid is
// never hit.
//
// Without it (no cgroup2 mount, or none writable: containers and CI runners that grant
// no delegated subtree), every tree carries a mark: a variable
// CMDBRIDGE_PROCTREE_<random>=1 added to the command's environment, which every
// descendant inherits across fork, exec, setsid and reparenting. [Tree.Kill] then
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
// Marks nest like cgroups.
//
// Why not a child subreaper: PR_SET_CHILD_SUBREAPER is an attribute of the whole
// process, and the adapter lane runs commands inside a long-lived host (cmdbridge serve,
// mcp) with calls in flight at the same time; adopted orphans of every call would land
// on the host, which would have to reap pids it did not start.
//
// Invariants:
//   - Kill never signals a process outside the tree: only the tree's cgroup, or (the
//     fallback) the group the command leads, its descendants found through parent
//     links while it is alive, and processes carrying this tree's random mark.
//   - With a cgroup, after Kill returns no process of the tree is alive and its cgroup
//     is gone, unless a process moved itself out of the cgroup by writing to another
//     cgroup's cgroup.procs (which needs write access to the cgroup hierarchy: root, or
//     the owner of a delegated subtree). Workspace code run through a [Jail] cannot: it
//     sees /sys read-only and lives in a pid namespace that dies with the tree.
//   - Without one, after Kill returns no process of the tree that kept the mark is
//     alive. A process that both cleared its environment and escaped the group and its
//     parent (`setsid env -i … &` from a subshell) is out of reach; a [Jail] (its pid
//     namespace dies with the tree) and the sandbox lane cover that case.
//   - Linux only: it reads /proc and uses pidfd_open(2) (Linux 5.3+), falling back to
//     kill(2) by pid when pidfds are unavailable; CLONE_INTO_CGROUP needs Linux 5.7
//     (an older kernel takes the fallback).
package proctree
