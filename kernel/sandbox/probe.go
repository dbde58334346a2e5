package sandbox

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/cmdbridge/cmdbridge/internal/tailbuf"
)

// Host is the probe's classification of what this machine's bwrap can do.
type Host string

const (
	// HostFull: every mandatory flag works and procfs can be mounted.
	HostFull Host = "full"
	// HostNoProc: the mandatory profile works but a fresh procfs cannot be mounted (a
	// container that masks /proc); calls run without /proc, recorded as degraded.
	HostNoProc Host = "no-proc"
	// HostNoUserns: bwrap exists but cannot create the unprivileged user namespace (or
	// another part of the mandatory profile) here; calls are refused.
	HostNoUserns Host = "no-userns"
	// HostUnsupported: the installed bwrap lacks a mandatory flag (--disable-userns needs
	// bubblewrap 0.8 or later); calls are refused.
	HostUnsupported Host = "unsupported"
	// HostAbsent: no bwrap executable at the configured path; calls are refused.
	HostAbsent Host = "absent"
)

// Usable reports whether calls can run on this host (possibly degraded).
func (h Host) Usable() bool { return h == HostFull || h == HostNoProc }

// mandatoryFlags must all appear in `bwrap --help`; a bwrap without one of them is never
// run, because dropping any of them silently weakens the sandbox.
var mandatoryFlags = []string{
	"--unshare-all", "--share-net", "--unshare-user", "--uid", "--gid", "--cap-drop",
	"--disable-userns", "--new-session", "--die-with-parent", "--clearenv", "--setenv",
	"--tmpfs", "--ro-bind", "--bind", "--symlink", "--dev", "--proc", "--chdir",
	"--ro-bind-data", "--dir",
}

type probeResult struct {
	host   Host
	detail string
}

// probes caches one classification per bwrap path: probing spawns bwrap twice.
var probes sync.Map // string → *probeOnce

type probeOnce struct {
	once sync.Once
	res  probeResult
}

// Probe classifies the host for the bwrap at path ("" means "bwrap" on $PATH) and returns
// a human-readable detail (the version, or why the sandbox cannot run). The result is
// cached per path for the life of the process.
func Probe(ctx context.Context, bwrap string) (Host, string) {
	if bwrap == "" {
		bwrap = "bwrap"
	}
	v, _ := probes.LoadOrStore(bwrap, &probeOnce{})
	p := v.(*probeOnce)
	p.once.Do(func() { p.res = probe(ctx, bwrap) })
	return p.res.host, p.res.detail
}

// probeTimeout bounds each probe spawn: a bwrap that hangs is as unusable as none.
const probeTimeout = 10 * time.Second

func probe(ctx context.Context, bwrap string) probeResult {
	path, err := exec.LookPath(bwrap)
	if err != nil {
		return probeResult{HostAbsent, fmt.Sprintf("bwrap not found at %q: %v", bwrap, err)}
	}
	version, _, err := spawnProbe(ctx, path, "--version")
	if err != nil {
		return probeResult{HostAbsent, fmt.Sprintf("%s --version: %v", path, err)}
	}
	version = strings.TrimSpace(version)
	help, _, err := spawnProbe(ctx, path, "--help")
	if err != nil {
		return probeResult{HostUnsupported, fmt.Sprintf("%s (%s) --help: %v", path, version, err)}
	}
	var missing []string
	for _, f := range mandatoryFlags {
		if !hasFlag(help, f) {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return probeResult{HostUnsupported, fmt.Sprintf("%s (%s) lacks mandatory flags %s (--disable-userns needs bubblewrap >= 0.8); refusing to run calls with a weaker sandbox",
			path, version, strings.Join(missing, " "))}
	}
	// The mandatory profile without procfs, running bwrap's own --version inside.
	base := probeArgv(path, false)
	if _, stderr, err := spawnProbe(ctx, path, base...); err != nil {
		return probeResult{HostNoUserns, fmt.Sprintf("%s (%s) cannot build the mandatory profile (user namespace, uid 65534, --disable-userns): %v: %s",
			path, version, err, strings.TrimSpace(stderr))}
	}
	if _, stderr, err := spawnProbe(ctx, path, probeArgv(path, true)...); err != nil {
		return probeResult{HostNoProc, fmt.Sprintf("%s (%s): procfs cannot be mounted, calls run without /proc: %v: %s",
			path, version, err, strings.TrimSpace(stderr))}
	}
	return probeResult{HostFull, fmt.Sprintf("%s (%s)", path, version)}
}

// hasFlag reports whether help lists flag as an option (a whole word at a line start).
func hasFlag(help, flag string) bool {
	for _, line := range strings.Split(help, "\n") {
		fields := strings.Fields(line)
		if len(fields) > 0 && fields[0] == flag {
			return true
		}
	}
	return false
}

// probeArgv is the mandatory profile with no scopes around `bwrap --version`.
func probeArgv(bwrap string, proc bool) []string {
	p := buildProfile(Request{}, proc, hostLayout())
	argv := append([]string(nil), p.argv...)
	// The probe passes no /etc data descriptors: drop those mounts (they are plain
	// tmpfs files and do not depend on the host's abilities).
	argv = stripDataMounts(argv)
	argv = append(argv, "--ro-bind", bwrap, bwrap, "--", bwrap, "--version")
	return argv
}

func stripDataMounts(argv []string) []string {
	out := argv[:0:0]
	for i := 0; i < len(argv); i++ {
		if argv[i] == "--ro-bind-data" {
			i += 2
			continue
		}
		out = append(out, argv[i])
	}
	return out
}

func spawnProbe(ctx context.Context, path string, args ...string) (string, string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = []string{}
	out, errb := tailbuf.New(64<<10), tailbuf.New(4<<10)
	cmd.Stdout, cmd.Stderr = out, errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}
