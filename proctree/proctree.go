package proctree

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// MarkPrefix starts the name of every tree's mark variable.
const MarkPrefix = "CMDBRIDGE_PROCTREE_"

// maxRounds bounds the scans of one Kill; each round after the first waits a little for
// killed processes to leave /proc.
const maxRounds = 200

// Tree is the process tree of one command.
type Tree struct {
	cmd  *exec.Cmd
	mark []byte // "NAME=1"
	// cgroup is the tree's own cgroup v2 directory, "" when the host offers none (the
	// marks are then the only way to find the tree); cgroupFD is open on it until the
	// first Kill, for CLONE_INTO_CGROUP.
	cgroup     string
	cgroupFD   int
	cgroupGone bool
}

// Attach prepares cmd, made by exec.CommandContext and not yet started, to run as a
// tree: in its own cgroup when the host has a writable cgroup v2 hierarchy (the command
// starts inside it, so does everything it ever forks), in its own process group, with
// the tree's mark added to its environment, and a Cancel that kills the whole tree when the context ends. A zero
// WaitDelay becomes two seconds, so a descendant holding an output pipe cannot hold up
// Wait after the tree is killed. The caller must call [Tree.Kill] once the command has
// ended (or failed to start): it also removes the cgroup.
//
// cmd.Env must be the child's whole environment: a nil one is empty, never the process's
// (a host serves concurrent calls, each with its own environment; a caller that wants the
// process's passes os.Environ() itself).
func Attach(cmd *exec.Cmd) *Tree {
	return attach(cmd, Cgroup2Dir())
}

// attach is Attach with the parent cgroup given ("": none, the fallback).
func attach(cmd *exec.Cmd, parent string) *Tree {
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := strings.ToUpper(hex.EncodeToString(b[:]))
	name := MarkPrefix + id
	t := &Tree{cmd: cmd, mark: []byte(name + "=1"), cgroupFD: -1}
	cmd.Env = append(slices.Clip(cmd.Env), string(t.mark))
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
	if dir, fd, err := newCgroup(parent, strings.ToLower(id)); err == nil {
		t.cgroup, t.cgroupFD = dir, fd
		cmd.SysProcAttr.UseCgroupFD = true
		cmd.SysProcAttr.CgroupFD = fd
	}
	cmd.Cancel = func() error {
		t.Kill()
		return nil
	}
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = 2 * time.Second
	}
	return t
}

// Mark returns the tree's mark, "NAME=1", as found in its processes' environments.
func (t *Tree) Mark() string { return string(t.mark) }

// Cgroup returns the directory of the tree's own cgroup, or "" when the tree has none
// (no writable cgroup v2 hierarchy: the fallback of the package doc).
func (t *Tree) Cgroup() string { return t.cgroup }

// Kill SIGKILLs every process of the tree still alive (see the package doc) and returns
// how many signals it sent. It is safe to call before the command started (it does
// nothing but remove the cgroup), more than once, and after Wait.
func (t *Tree) Kill() int {
	if t.cgroupFD >= 0 {
		// Started, or never will be: the descriptor has served.
		_ = unix.Close(t.cgroupFD)
		t.cgroupFD = -1
	}
	if t.cgroup != "" {
		if t.cgroupGone {
			return 0
		}
		sent, removed := killCgroup(t.cgroup)
		t.cgroupGone = removed
		return sent
	}
	if t.cmd.Process == nil {
		return 0
	}
	leader := t.cmd.Process.Pid
	sent := 0
	// Descendants by parent links are read first (once the group dies they are
	// reparented and the links are gone) but signalled after the group: the group dies
	// at once, so no shell of it lives to report a child's death on the call's stderr.
	below := descendants(leader)
	if err := syscall.Kill(-leader, syscall.SIGKILL); err == nil {
		sent++
	}
	for _, pid := range below {
		if signal(pid, nil) {
			sent++
		}
	}
	for round := 0; round < maxRounds; round++ {
		n := t.killMarked()
		sent += n
		if n == 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return sent
}

// killMarked signals every live process carrying the mark and returns how many.
func (t *Tree) killMarked() int {
	n := 0
	self := os.Getpid()
	for _, pid := range pids() {
		if pid == self {
			continue
		}
		if signal(pid, t.carries) {
			n++
		}
	}
	return n
}

// carries reports whether the process pid's initial environment holds the mark.
func (t *Tree) carries(pid int) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil || len(env) == 0 { // gone, not ours, or a zombie (no memory left)
		return false
	}
	for _, kv := range bytes.Split(env, []byte{0}) {
		if bytes.Equal(kv, t.mark) {
			return true
		}
	}
	return false
}

// signal SIGKILLs pid when check (nil: always) accepts it. The check runs after a pidfd
// is open, so the process checked is the process signalled, even if pid is recycled.
func signal(pid int, check func(int) bool) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		if errors.Is(err, unix.ESRCH) {
			return false
		}
		// No pidfds (old kernel, seccomp): fall back to the pid itself.
		if check != nil && !check(pid) {
			return false
		}
		return unix.Kill(pid, unix.SIGKILL) == nil
	}
	defer unix.Close(fd)
	if check != nil && !check(pid) {
		return false
	}
	return unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) == nil
}

// pids lists the numeric entries of /proc.
func pids() []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]int, 0, len(ents))
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// descendants returns the processes below root through parent links that are not in
// root's process group (the group is killed as a whole), from one pass over
// /proc/<pid>/stat.
func descendants(root int) []int {
	children := map[int][]int{}
	group := map[int]int{}
	for _, pid := range pids() {
		if pp, pg, ok := parentAndGroup(pid); ok {
			children[pp] = append(children[pp], pid)
			group[pid] = pg
		}
	}
	var out []int
	queue := []int{root}
	seen := map[int]bool{root: true}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !seen[c] {
				seen[c] = true
				if group[c] != root {
					out = append(out, c)
				}
				queue = append(queue, c)
			}
		}
	}
	return out
}

// parentAndGroup reads the parent pid and process group from /proc/<pid>/stat ("pid
// (comm) state ppid pgrp …"; comm may hold spaces and parentheses, so the fields start
// after the last ')').
func parentAndGroup(pid int) (ppid, pgrp int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 3 {
		return 0, 0, false
	}
	pp, err1 := strconv.Atoi(f[1])
	pg, err2 := strconv.Atoi(f[2])
	return pp, pg, err1 == nil && err2 == nil
}

// Alive reports whether pid exists and is not a zombie (a zombie has ended; it only
// waits for its parent to collect its status).
func Alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || !bytes.HasPrefix(bytes.TrimSpace(b[i+1:]), []byte("Z"))
}
