package proctree

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// JailEnv names the environment variable through which a host hands its [Jail] to a
// program it runs as a real process (the subprocess lane): the jail's JSON. A program
// run by hand has none, and runs its commands as they are.
const JailEnv = "CMDBRIDGE_JAIL"

// ErrNoJail is the refusal to run workspace code when bubblewrap cannot be found and
// the operator has not consented to running it unconfined.
var ErrNoJail = errors.New("workspace code runs only inside bubblewrap, where cmdbridge's state directory and keys are hidden; " +
	"install bubblewrap 0.8 or later (apt-get install bubblewrap) or, to run it with the server's own rights, " +
	"set unconfined_workspace_code: true in .cmdbridge/config.yaml (kernel.Config.UnconfinedWorkspaceCode)")

// Jail is where the code a workspace defines (gate commands, configured shell) or a
// caller passes runs: a bubblewrap mount, pid, ipc and cgroup namespace over the host's
// whole file system, in which
//
//   - every Hide directory is an empty tmpfs (a Hide file reads as empty), so nothing
//     started inside can read cmdbridge's state directory and keys by any path;
//   - every ReadOnly path is bound read-only (the repository's .git, whose hooks and
//     configuration the host's own git runs execute; the workspace's .cmdbridge, whose
//     policy the host reads);
//   - /proc is the pid namespace's own (no process outside the tree is visible: no
//     /proc/<host pid>/root, fd, mem, environ), /dev a fresh minimal one (no disks),
//     /sys read-only (no moving out of the tree's cgroup);
//   - no capability is left, no user namespace can be made, and the uid and gid are
//     the host's, so files written land as the host would write them.
//
// The pid namespace dies with bwrap (--die-with-parent), and so with the tree.
type Jail struct {
	// Bwrap is the bubblewrap program; "" finds bwrap on PATH.
	Bwrap string `json:"bwrap,omitempty"`
	// Hide lists the directories (or files) covered inside.
	Hide []string `json:"hide"`
	// ReadOnly lists the paths bound read-only inside. One that does not exist yet (the
	// workspace's .cmdbridge) is made an empty directory first, when its parent exists,
	// so the code cannot create it either.
	ReadOnly []string `json:"read_only,omitempty"`
	// Unconfined is the operator's explicit consent to run commands with the host's
	// own rights when bubblewrap is missing; without it they are refused ([ErrNoJail]).
	Unconfined bool `json:"unconfined,omitempty"`
}

type jailKey struct{}

// WithJail returns ctx carrying j: the commands of the call ctx serves run in it.
func WithJail(ctx context.Context, j *Jail) context.Context {
	return context.WithValue(ctx, jailKey{}, j)
}

// JailFrom returns the jail ctx carries ([WithJail]: the in-process lanes), else the
// one the variable [JailEnv] holds (lookup: the program's environment, on the
// subprocess lane), else nil: no host asked for one. A variable that does not parse is
// an error, never no jail.
func JailFrom(ctx context.Context, lookup func(string) (string, bool)) (*Jail, error) {
	if j, ok := ctx.Value(jailKey{}).(*Jail); ok && j != nil {
		return j, nil
	}
	if lookup == nil {
		return nil, nil
	}
	v, ok := lookup(JailEnv)
	if !ok || v == "" {
		return nil, nil
	}
	j := &Jail{}
	if err := json.Unmarshal([]byte(v), j); err != nil {
		return nil, fmt.Errorf("%s: %w", JailEnv, err)
	}
	return j, nil
}

// Environ is the KEY=VALUE entry that hands j to a program ([JailEnv]).
func (j *Jail) Environ() string {
	b, _ := json.Marshal(j)
	return JailEnv + "=" + string(b)
}

// Confine rewrites cmd, made by exec.Command and not yet started, to run inside the
// jail: bwrap with the jail's flags, then cmd's program and arguments, in cmd.Dir.
// Call it before or after [Attach]; the environment, directory and streams are kept.
// A nil jail leaves cmd as it is. Without bubblewrap it returns [ErrNoJail], unless the
// operator consented (Unconfined), and then leaves cmd as it is.
func (j *Jail) Confine(cmd *exec.Cmd) error {
	if j == nil || cmd.Err != nil {
		return nil
	}
	bwrap := j.Bwrap
	if bwrap == "" {
		bwrap = "bwrap"
	}
	path, err := exec.LookPath(bwrap)
	if err != nil {
		if j.Unconfined {
			return nil
		}
		return fmt.Errorf("%w (%v)", ErrNoJail, err)
	}
	argv := append([]string{path}, j.flags(cmd.Dir)...)
	argv = append(argv, "--", cmd.Path)
	cmd.Args = append(argv, cmd.Args[1:]...)
	cmd.Path = path
	return nil
}

// flags are bwrap's options for a command run in dir.
func (j *Jail) flags(dir string) []string {
	f := []string{
		"--unshare-user", "--uid", strconv.Itoa(os.Geteuid()), "--gid", strconv.Itoa(os.Getegid()),
		"--disable-userns", "--cap-drop", "ALL",
		"--unshare-pid", "--unshare-ipc", "--unshare-cgroup",
		"--die-with-parent", "--new-session",
		"--dev-bind", "/", "/",
		"--ro-bind", "/sys", "/sys",
		"--dev", "/dev",
		"--proc", "/proc",
	}
	// --dev makes a fresh /dev, whose shm is empty: the host's comes back, as every other
	// place does (a workspace may live on that tmpfs; the binds below still apply in it).
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		f = append(f, "--bind", "/dev/shm", "/dev/shm")
	}
	// Read-only binds first, shallowest first; then the hidden paths, which a
	// read-only bind of a parent would otherwise uncover.
	for _, p := range j.ReadOnly {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			_ = os.Mkdir(p, 0o755) // fails, harmlessly, when the parent is missing too
		}
	}
	for _, p := range existing(j.ReadOnly) {
		f = append(f, "--ro-bind", p, p)
	}
	for _, p := range existing(j.Hide) {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			f = append(f, "--ro-bind", "/dev/null", p)
			continue
		}
		f = append(f, "--tmpfs", p)
	}
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			f = append(f, "--chdir", abs)
		}
	}
	return f
}

// existing returns the paths that exist, resolved (the mounts must name the real
// places), without duplicates, shallowest first.
func existing(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		real, err := filepath.EvalSymlinks(p)
		if err != nil || seen[real] {
			continue
		}
		if real, err = filepath.Abs(real); err != nil {
			continue
		}
		seen[real] = true
		out = append(out, real)
	}
	sort.SliceStable(out, func(a, b int) bool {
		return strings.Count(out[a], string(filepath.Separator)) < strings.Count(out[b], string(filepath.Separator))
	})
	return out
}
