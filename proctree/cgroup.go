package proctree

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// cgroupPrefix starts the name of every tree's cgroup.
const cgroupPrefix = "cmdbridge-tree-"

// Cgroup2Dir returns the directory of this process's own cgroup in the cgroup v2
// hierarchy, read from /proc/self/mountinfo (where cgroup2 is mounted: /sys/fs/cgroup on
// a unified host, /sys/fs/cgroup/unified on a hybrid one) and /proc/self/cgroup (the
// "0::" line). It returns "" when there is no cgroup2 mount or this process is not in
// the v2 hierarchy; whether a child cgroup can be made there is only known by trying.
func Cgroup2Dir() string {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	rel, found := "", false
	for _, line := range strings.Split(string(self), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			rel, found = p, true
			break
		}
	}
	if !found || strings.Contains(rel, "(deleted)") {
		return ""
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options [optional…] - fstype source super
		left, right, ok := strings.Cut(sc.Text(), " - ")
		if !ok || !strings.HasPrefix(right, "cgroup2 ") {
			continue
		}
		fields := strings.Fields(left)
		if len(fields) < 5 {
			continue
		}
		root, mnt := unescape(fields[3]), unescape(fields[4])
		// The mount shows the hierarchy from root; our cgroup must lie under it.
		sub, ok := strings.CutPrefix(rel, root)
		if !ok || (sub != "" && !strings.HasPrefix(sub, "/") && root != "/") {
			continue
		}
		return filepath.Join(mnt, sub)
	}
	return ""
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// newCgroup makes the tree's cgroup below parent and opens it for CLONE_INTO_CGROUP,
// which needs Linux 5.7: on an older kernel the start itself would fail, so the tree
// takes the fallback.
func newCgroup(parent, name string) (dir string, fd int, err error) {
	if parent == "" {
		return "", -1, errors.New("no cgroup v2 hierarchy")
	}
	if !kernelAtLeast(5, 7) {
		return "", -1, errors.New("CLONE_INTO_CGROUP needs Linux 5.7")
	}
	dir = filepath.Join(parent, cgroupPrefix+name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", -1, err
	}
	fd, err = unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = os.Remove(dir)
		return "", -1, err
	}
	return dir, fd, nil
}

// killCgroup SIGKILLs every process of the cgroup dir and its descendants at once
// (cgroup.kill, Linux 5.14+; on older kernels it freezes the cgroup, kills every
// process it lists, and thaws it so the killed processes can die), waits (bounded)
// until the cgroup is empty, and removes it with its child cgroups. It returns how
// many processes it found alive, and whether the cgroup is gone.
func killCgroup(dir string) (sent int, removed bool) {
	procs := cgroupProcs(dir)
	sent = len(procs)
	if len(procs) > 0 {
		if err := os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0); err != nil {
			freezeAndKill(dir)
		}
	}
	for round := 0; round < maxRounds; round++ {
		if !populated(dir) && removeCgroup(dir) {
			return sent, true
		}
		if round > 0 && len(cgroupProcs(dir)) > 0 {
			// Moved in after the kill (cannot happen through fork, which the kill
			// covers, but a process writing to cgroup.procs can): kill again.
			if err := os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0); err != nil {
				freezeAndKill(dir)
			}
		}
		time.Sleep(time.Millisecond)
	}
	return sent, false
}

// freezeAndKill is the cgroup.kill of kernels without it.
func freezeAndKill(dir string) {
	_ = os.WriteFile(filepath.Join(dir, "cgroup.freeze"), []byte("1"), 0)
	for _, pid := range cgroupProcs(dir) {
		_ = unix.Kill(pid, unix.SIGKILL)
	}
	_ = os.WriteFile(filepath.Join(dir, "cgroup.freeze"), []byte("0"), 0)
}

// cgroupProcs lists the processes of dir and its child cgroups.
func cgroupProcs(dir string) []int {
	var out []int
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(filepath.Join(p, "cgroup.procs"))
		if err != nil {
			return nil
		}
		for _, f := range bytes.Fields(b) {
			if pid, err := strconv.Atoi(string(f)); err == nil {
				out = append(out, pid)
			}
		}
		return nil
	})
	return out
}

// populated reads "populated 1" from dir's cgroup.events (this cgroup or a descendant
// holds a live process).
func populated(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.events"))
	if err != nil {
		return false
	}
	return bytes.Contains(b, []byte("populated 1"))
}

// removeCgroup removes dir and its child cgroups, deepest first (rmdir is the only way
// to remove a cgroup; its files go with it).
func removeCgroup(dir string) bool {
	var dirs []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = unix.Rmdir(dirs[i])
	}
	_, err := os.Stat(dir)
	return errors.Is(err, os.ErrNotExist)
}

// kernelAtLeast reports whether the running kernel's release is major.minor or later.
func kernelAtLeast(major, minor int) bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	rel := unix.ByteSliceToString(u.Release[:])
	parts := strings.SplitN(rel, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1][:digits(parts[1])])
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}

// digits is the length of s's leading run of decimal digits.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
