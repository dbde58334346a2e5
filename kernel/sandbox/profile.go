package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The identity the sandboxed call runs as: nobody/nogroup.
const (
	sandboxUID = 65534
	sandboxGID = 65534
)

// baseEnv is the fixed environment of every call; Request.Env adds to it and cannot
// override it.
var baseEnv = [][2]string{
	{"HOME", "/tmp"},
	{"LANG", "C.UTF-8"},
	{"PATH", "/usr/bin:/bin"},
}

// dataFD is the first descriptor (inside bwrap's view) carrying generated /etc files;
// fd 3 is the result descriptor.
const dataFD = 4

// etcFile is a generated file bwrap copies into the sandbox's /etc from a descriptor.
type etcFile struct {
	path    string
	content string
}

// profile is a built sandbox profile: the bwrap flags (up to, not including, the runner
// binding and "--"), the files handed over on descriptors dataFD, dataFD+1, …, and the
// hash of both.
type profile struct {
	argv     []string
	files    []etcFile
	hash     string
	degraded []string
}

// Profile returns the bwrap flags of req on a host of this class and the profile hash.
// The runner binding and the command follow these flags in the real argv; they are host
// facts and not part of the hash. Deterministic: the same request and host give the same
// result. The generated /etc files are read by bwrap from descriptors 4, 5, … (see
// [Runner.Run]).
func Profile(req Request, host Host) (argv []string, hash string) {
	p := buildProfile(req, host != HostNoProc, hostLayout())
	return p.argv, p.hash
}

// layout is how the host's root links its system directories into /usr (Debian's merged
// /usr makes /bin, /lib… symlinks; older layouts have real directories).
type layout struct {
	// links maps /bin, /lib… to their symlink target; dirs lists the real directories.
	links map[string]string
	dirs  []string
}

var (
	layoutOnce sync.Once
	theLayout  layout
)

// systemDirs are the top-level directories the runner may need besides /usr.
var systemDirs = []string{"/bin", "/lib", "/lib32", "/lib64", "/libx32", "/sbin"}

func hostLayout() layout {
	layoutOnce.Do(func() {
		theLayout.links = map[string]string{}
		for _, d := range systemDirs {
			st, err := os.Lstat(d)
			switch {
			case err != nil:
			case st.Mode()&os.ModeSymlink != 0:
				if target, err := os.Readlink(d); err == nil {
					theLayout.links[d] = target
				}
			case st.IsDir():
				theLayout.dirs = append(theLayout.dirs, d)
			}
		}
	})
	return theLayout
}

func buildProfile(req Request, proc bool, lay layout) profile {
	var p profile
	a := func(args ...string) { p.argv = append(p.argv, args...) }

	// Namespaces, identity and privileges: all mandatory.
	a("--unshare-all")
	if req.Network {
		a("--share-net")
	}
	a("--unshare-user", "--uid", strconv.Itoa(sandboxUID), "--gid", strconv.Itoa(sandboxGID),
		"--disable-userns", "--cap-drop", "ALL", "--new-session", "--die-with-parent")

	// Environment: cleared, then the fixed base, then the request's allowlist.
	a("--clearenv")
	fixed := map[string]bool{}
	for _, kv := range baseEnv {
		a("--setenv", kv[0], kv[1])
		fixed[kv[0]] = true
	}
	keys := make([]string, 0, len(req.Env))
	for k := range req.Env {
		if !fixed[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		a("--setenv", k, req.Env[k])
	}

	// Root: empty, system directories read-only.
	a("--tmpfs", "/", "--ro-bind", "/usr", "/usr")
	for _, d := range systemDirs {
		if target, ok := lay.links[d]; ok {
			a("--symlink", target, d)
		}
	}
	for _, d := range lay.dirs {
		a("--ro-bind", d, d)
	}
	a("--dev", "/dev")
	if proc {
		a("--proc", "/proc")
	} else {
		p.degraded = append(p.degraded, string(HostNoProc))
	}
	a("--tmpfs", "/tmp", "--dir", "/etc")
	p.files = []etcFile{
		{"/etc/passwd", "root:x:0:0:root:/root:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/tmp:/usr/sbin/nologin\n"},
		{"/etc/group", "root:x:0:\nnogroup:x:65534:\n"},
		{"/etc/hosts", "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"},
	}
	for i, f := range p.files {
		a("--ro-bind-data", strconv.Itoa(dataFD+i), f.path)
	}
	if req.Network {
		// Name resolution only when the tool may use the network.
		a("--ro-bind-try", "/etc/resolv.conf", "/etc/resolv.conf")
	}

	// Scopes, shallowest first, read before write at equal depth: the innermost wins.
	mounts := scopeMounts(req.ScopeEnforced)
	for _, m := range mounts {
		a(m.flag, m.path, m.path)
	}
	// Then what the scopes must not show: an empty tmpfs over each hidden directory a
	// scope mounted (one no scope reaches is invisible already).
	hidden := append([]string(nil), req.Hidden...)
	sort.Strings(hidden)
	for _, h := range hidden {
		h = filepath.Clean(h)
		for _, m := range mounts {
			if within(h, m.path) {
				a("--tmpfs", h)
				break
			}
		}
	}
	dir := req.Workspace
	if dir == "" {
		dir = "/tmp"
	}
	a("--chdir", dir)

	h := sha256.New()
	for _, s := range p.argv {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	for _, f := range p.files {
		h.Write([]byte(f.path + "\x00" + f.content + "\x00"))
	}
	p.hash = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return p
}

type mount struct {
	flag, path string
	depth      int
	write      bool
}

func scopeMounts(s Scopes) []mount {
	var ms []mount
	seen := map[string]int{}
	add := func(path string, write bool) {
		path = filepath.Clean(path)
		flag := "--ro-bind"
		if write {
			flag = "--bind"
		}
		if i, ok := seen[path]; ok {
			// The same path in both lists is writable; duplicates mount once.
			if write {
				ms[i].flag, ms[i].write = flag, true
			}
			return
		}
		seen[path] = len(ms)
		ms = append(ms, mount{flag: flag, path: path, depth: depth(path), write: write})
	}
	for _, r := range s.Read {
		add(r, false)
	}
	for _, w := range s.Write {
		add(w, true)
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].depth != ms[j].depth {
			return ms[i].depth < ms[j].depth
		}
		if ms[i].write != ms[j].write {
			return !ms[i].write
		}
		return ms[i].path < ms[j].path
	})
	return ms
}

func depth(path string) int {
	if path == "/" {
		return 0
	}
	return strings.Count(path, "/")
}

// within reports whether path is root or inside it.
func within(path, root string) bool {
	if root == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == root || strings.HasPrefix(path, root+"/")
}
