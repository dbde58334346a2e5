package delivery

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// ScriptEnv is what every parity script of the corpus sets (parity.Suite.Env): the
// pinned clock, id seed and owner, so outputs and commit ids are the same on every run.
// Its variables reach every lane of a call.
var ScriptEnv = map[string]string{
	"DELIVERY_NOW":   "2026-03-01T10:00:00.000Z",
	"DELIVERY_SEED":  "cmdbridge",
	"DELIVERY_OWNER": "tester@example.com",
}

// Initialisms are the corpus's words written in capitals in Go names (WUStatusInput):
// scaffold's (host.Config.Initialisms).
var Initialisms = []string{"wu"}

// ScriptPassEnv are the corpus's other variables a parity script may set for its calls
// (parity.Suite.PassEnv).
var ScriptPassEnv = []string{"DELIVERY_WORKSPACE", "STALE_LOCK_THRESHOLD_HOURS", "LUMENFLOW_AGENT_CAPABILITIES", "LUMENFLOW_AGENT_VERSION", "HOSTNAME"}

// Formats of corpus §1.14.
const (
	TimestampLayout = "2006-01-02T15:04:05.000Z"
	DateLayout      = "2006-01-02"
)

// DefaultStaleLockThreshold is the lane-lock staleness threshold without
// STALE_LOCK_THRESHOLD_HOURS.
const DefaultStaleLockThreshold = 2 * time.Hour

// Timestamp formats t as RFC 3339 UTC with milliseconds.
func Timestamp(t time.Time) string { return t.UTC().Format(TimestampLayout) }

// Date formats the UTC date of t.
func Date(t time.Time) string { return t.UTC().Format(DateLayout) }

// ParseTimestamp parses any RFC 3339 instant (with or without fractional seconds).
func ParseTimestamp(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// Runtime is one invocation's clock, id source and identity (corpus §2.5). It implements
// tool.IDSource. A Runtime is safe for concurrent use.
type Runtime struct {
	env       gitrepo.LookupEnv
	environ   func() []string
	dir       string
	frozen    *time.Time
	seed      *string
	threshold time.Duration
	// clock and ids, when set (UseHost), are the host's: a native call's tool.Env.
	clock func() time.Time
	ids   tool.IDSource

	// committer, when set (UseCommitter), makes commits in-process.
	committer gitrepo.Committer

	mu      sync.Mutex
	draws   map[string]int
	owner   string
	journal *storage.Journal
}

var _ tool.IDSource = (*Runtime)(nil)

// NewRuntime validates the §2.5 environment variables and returns the runtime of an
// invocation started in dir. A value that cannot be parsed is a USAGE error (exit 2) with the
// message "invalid environment variable <NAME>: <reason>".
func NewRuntime(dir string, env gitrepo.LookupEnv) (*Runtime, error) {
	r := &Runtime{env: env, dir: dir, threshold: DefaultStaleLockThreshold, draws: map[string]int{}}
	if v, ok := env("DELIVERY_NOW"); ok {
		t, err := ParseTimestamp(v)
		if err != nil {
			return nil, envError("DELIVERY_NOW", "expected an RFC 3339 timestamp")
		}
		t = t.UTC()
		r.frozen = &t
	}
	if v, ok := env("DELIVERY_SEED"); ok {
		r.seed = &v
	}
	if v, ok := env("DELIVERY_WORKSPACE"); ok && v != "" && !filepath.IsAbs(v) {
		return nil, envError("DELIVERY_WORKSPACE", "must be an absolute path")
	}
	if v, ok := env("STALE_LOCK_THRESHOLD_HOURS"); ok {
		h, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(h > 0) || h > 1e6 {
			return nil, envError("STALE_LOCK_THRESHOLD_HOURS", "expected a positive number of hours")
		}
		r.threshold = time.Duration(h * float64(time.Hour))
	}
	return r, nil
}

func envError(name, reason string) *Error {
	return Errorf(tool.CodeUsage, "invalid environment variable %s: %s", name, reason)
}

// UseHost makes the runtime take its clock and its ids from the host that runs the call
// (a native tool's tool.Env: the host derives both from the call's DELIVERY_NOW and
// DELIVERY_SEED once, as delivery.ToolRuntime does), instead of its own. A nil argument
// keeps the runtime's own. The environment is still validated by NewRuntime, so a bad
// variable is the same USAGE error on every lane.
func (r *Runtime) UseHost(now func() time.Time, ids tool.IDSource) {
	r.clock, r.ids = now, ids
}

// UseCommitter makes the runtime's Git ([NewGit]) commit through c instead of the git
// binary wherever c can (a native call's in-process git). Call it before the runtime
// is shared.
func (r *Runtime) UseCommitter(c gitrepo.Committer) { r.committer = c }

// Now returns the host's clock (UseHost), else DELIVERY_NOW when set (frozen), else the
// wall clock, in UTC.
func (r *Runtime) Now() time.Time {
	if r.clock != nil {
		return r.clock().UTC()
	}
	if r.frozen != nil {
		return *r.frozen
	}
	return time.Now().UTC()
}

// Frozen reports whether DELIVERY_NOW froze the clock.
func (r *Runtime) Frozen() bool { return r.frozen != nil }

// NowString is the frozen instant as text, for the records that keep it so (commit
// dates, an incident's timestamp): [Runtime.Now] — the host's clock under UseHost — in
// the canonical form (Timestamp), or "" when DELIVERY_NOW did not freeze the clock.
func (r *Runtime) NowString() string {
	if r.frozen == nil {
		return ""
	}
	return Timestamp(r.Now())
}

// StaleThreshold is the lane-lock staleness threshold (STALE_LOCK_THRESHOLD_HOURS).
func (r *Runtime) StaleThreshold() time.Duration { return r.threshold }

// Env returns the lookup function the runtime was built with.
func (r *Runtime) Env() gitrepo.LookupEnv { return r.env }

// SetEnviron gives the runtime the whole environment of its invocation, for a host that
// holds it (a legacy command: os.Environ): git then gets all of it. Call it before the
// runtime is shared.
func (r *Runtime) SetEnviron(environ func() []string) { r.environ = environ }

// Environ is the environment of the subprocesses the invocation runs: the whole one
// given to SetEnviron, else the git variables the runtime's lookup sets (a native call:
// see gitEnvVars). It is never nil.
func (r *Runtime) Environ() []string {
	if r.environ != nil {
		return append([]string{}, r.environ()...)
	}
	return gitrepo.EnvironOf(r.env)
}

// Hex is rand_hex(kind, n) of corpus §2.5: with DELIVERY_SEED, the first n hex characters
// of sha256(seed|kind|k|now), k counting this runtime's draws of kind from 0; otherwise
// crypto/rand. n is at most 64.
func (r *Runtime) Hex(kind string, n int) string {
	if r.ids != nil {
		return r.ids.Hex(kind, n)
	}
	r.mu.Lock()
	k := r.draws[kind]
	r.draws[kind] = k + 1
	r.mu.Unlock()
	if r.seed != nil {
		sum := sha256.Sum256([]byte(*r.seed + "|" + kind + "|" + strconv.Itoa(k) + "|" + Timestamp(r.Now())))
		return hex.EncodeToString(sum[:])[:n]
	}
	buf := make([]byte, (n+1)/2)
	if _, err := rand.Read(buf); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err)) // the OS RNG does not fail on Linux
	}
	return hex.EncodeToString(buf)[:n]
}

// Kinds of random ids and their hex lengths.
const (
	KindSignal     = "sig"
	KindDelegation = "dlg"
	KindUUID       = "uuid"
)

// NewID draws an id of kind ("sig" → sig-xxxxxxxx, "dlg" → dlg-xxxx, "uuid" → a v4-shaped
// UUID) from src and draws again while exists reports it taken (exists may be nil).
func NewID(src tool.IDSource, kind string, exists func(id string) bool) string {
	for {
		var id string
		switch kind {
		case KindSignal:
			id = "sig-" + src.Hex(kind, 8)
		case KindDelegation:
			id = "dlg-" + src.Hex(kind, 4)
		case KindUUID:
			id = FormatUUID(src.Hex(kind, 32))
		default:
			panic("delivery.NewID: unknown id kind " + kind)
		}
		if exists == nil || !exists(id) {
			return id
		}
	}
}

// FormatUUID shapes 32 hex digits as a version-4 UUID: the 13th digit becomes 4, the 17th
// digit d becomes 8|(d&3), formatted 8-4-4-4-12.
func FormatUUID(h string) string {
	b := []byte(strings.ToLower(h))
	b[12] = '4'
	d, _ := strconv.ParseUint(string(b[16]), 16, 8)
	b[16] = "0123456789abcdef"[8|(d&3)]
	return fmt.Sprintf("%s-%s-%s-%s-%s", b[0:8], b[8:12], b[12:16], b[16:20], b[20:32])
}

// Owner is the identity for lane locks and sender defaults: DELIVERY_OWNER, else
// `git config user.email` in the runtime's directory, else $USER, else "unknown".
func (r *Runtime) Owner(ctx context.Context) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.owner != "" {
		return r.owner
	}
	r.owner = r.resolveOwner(ctx)
	return r.owner
}

func (r *Runtime) resolveOwner(ctx context.Context) string {
	if v, ok := r.env("DELIVERY_OWNER"); ok && v != "" {
		return v
	}
	if email := gitConfigValue(ctx, r.dir, "user.email", r.Environ()); email != "" {
		return email
	}
	if v, ok := r.env("USER"); ok && v != "" {
		return v
	}
	return "unknown"
}

func gitConfigValue(ctx context.Context, dir, key string, environ []string) string {
	out, err := (&gitrepo.Git{Dir: dir, Environ: environ}).Output(ctx, "config", "--get", key)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// Journal begins the run's write journal on the workspace at root the first time it is
// called and returns it (the same one afterwards): a command run journals the workspace
// it opened. Beginning it takes the worktree's journal lock and replays the journal of
// a run that died ([storage.BeginJournal]); an error means the run must not write.
// [Runtime.EndJournal] ends it.
func (r *Runtime) Journal(ctx context.Context, root string) (*storage.Journal, error) {
	r.mu.Lock()
	j := r.journal
	r.mu.Unlock()
	if j != nil {
		return j, nil
	}
	j, err := storage.BeginJournal(ctx, root, r.Environ())
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.journal == nil {
		r.journal = j
	}
	return r.journal, nil
}

// EndJournal ends the run's write journal: rolled back when the run failed, discarded
// when it succeeded. Without a journal it does nothing. A rollback error is returned for
// the caller to report; the run's own failure stays the result.
func (r *Runtime) EndJournal(ctx context.Context, failed bool) error {
	r.mu.Lock()
	j := r.journal
	r.journal = nil
	r.mu.Unlock()
	if !failed {
		return j.Discard()
	}
	return j.Rollback(unstage(context.WithoutCancel(ctx), r))
}

// unstage is what a journal's rollback resets the paths a failed run staged with: `git
// reset -q -- <paths>` in the worktree, in the runtime's environment.
func unstage(ctx context.Context, r *Runtime) func(root string, paths []string) error {
	return func(root string, paths []string) error {
		_, err := NewGit(root, r).Output(ctx, append([]string{"reset", "-q", "--"}, paths...)...)
		return err
	}
}
