package lane

import (
	"context"
	"encoding/json"
	"maps"
	"sync"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Lane names: the lanes a kernel has, the names receipts record and a request may force.
const (
	// Adapter runs a legacy command's main in-process under the adapter's costume.
	Adapter = "adapter"
	// Subprocess runs a legacy command as a real process of the host's program.
	Subprocess = "subprocess"
	// Native calls a native tool's Go handler.
	Native = "native"
	// Sandbox runs the call's routed implementation inside a bwrap sandbox built from
	// the caller's scopes.
	Sandbox = "sandbox"
)

// Route values: which implementation serves a tool.
const (
	// RouteAdapter: the legacy command, on the adapter lane.
	RouteAdapter = "adapter"
	// RouteNative: the native implementation, on the native lane.
	RouteNative = "native"
	// RouteShadow: the legacy command serves, and the native implementation also runs
	// on a copy of the workspace for comparison.
	RouteShadow = "shadow"
)

// Lane runs calls the kernel has already governed, validated, scoped and recorded. The
// kernel has one lane per name (Adapter, Subprocess, Native, Sandbox); a shadow-routed
// call runs on a decorator over its lane.
type Lane interface {
	// Name is the lane's name, the one a receipt records and a request forces.
	Name() string
	// Run runs one call under ctx (the call's deadline) and returns its Output. A lane
	// that cannot run the call (no implementation of its kind) returns a failure.
	Run(ctx context.Context, call Call) tool.Output
}

// Shadows serve the shadow-routed calls of one kernel: Lane decorates the lane that
// serves such a call (primary: the adapter lane, or the sandbox lane for a sandboxed
// tool) with a run of its secondary (the native lane) on a copy of the call's
// directory, and the comparison of the two lands in the call's Notes (SetShadow) and in
// Stats. The kernel holds one, built by its configuration's factory from the state
// directory it finds (package kernel/shadow's Runs, which kernel/assemble plugs in), and
// closes it when it closes.
//
// An implementation keeps the decorator's promises: the result served is always the
// primary's, the primary's own notes reach the call's Notes and the secondary's never
// do, and a comparison that cannot be made changes nothing served (it is recorded as an
// error). Its Lane is called once per dispatched shadow-routed call and must be cheap.
type Shadows interface {
	// Lane decorates primary with a shadow run of secondary; its Name is the primary's,
	// the lane the receipt records.
	Lane(primary, secondary Lane) Lane
	// Stats returns the comparisons per tool so far; tools never shadowed are absent.
	Stats() map[string]ShadowStat
	// Close releases what the runs keep between calls (the copies); a run still going
	// releases its own when it ends.
	Close() error
}

// ShadowStat counts the shadow comparisons of one tool since its Shadows began.
type ShadowStat struct {
	// Runs is every shadow-routed call that reached dispatch.
	Runs int64 `json:"runs"`
	// Mismatches are runs whose native result or file tree differed from the adapter's.
	Mismatches int64 `json:"mismatches"`
	// Errors are runs whose shadow could not be made or finished (copy failed, deadline).
	Errors int64 `json:"errors"`
}

// Binder is a lane that prepares a call before running it: the native lane decodes the
// input into the tool's Input struct in the caller's goroutine, so an input the schema
// accepted and the lane rejects is told apart from a failure of the tool.
type Binder interface {
	Lane
	// Bind prepares call; the returned function runs it. An error is a rejected input.
	Bind(call Call) (func(ctx context.Context) tool.Output, error)
}

// Bind prepares call on l: through its Bind when l is a Binder, else a plain Run.
func Bind(l Lane, call Call) (func(ctx context.Context) tool.Output, error) {
	if b, ok := l.(Binder); ok {
		return b.Bind(call)
	}
	return func(ctx context.Context) tool.Output { return l.Run(ctx, call) }, nil
}

// RunBound is Run for a Binder: a rejected input is INVALID_INPUT.
func RunBound(ctx context.Context, b Binder, call Call) tool.Output {
	run, err := b.Bind(call)
	if err != nil {
		return tool.Fail(tool.CodeInvalidInput, "%s: %v", call.Spec.Name, err)
	}
	return run(ctx)
}

// Caller is who makes a call and what it may touch, as authenticated by the surface.
type Caller struct {
	Subject string
	// Read and Write are directory scopes, absolute or relative to the workspace. A
	// write scope also grants reading.
	Read  []string
	Write []string
	// Tools, when not nil, are doublestar globs over the canonical names of the tools
	// the caller may call (a token's tools): the kernel answers any other as it answers
	// an unknown tool. Nil: every tool the kernel serves. Surfaces also keep the others
	// out of their lists; this holds whatever a surface forgets.
	Tools []string
}

// Sees reports whether c may call the tool of canonical name (see Tools).
func (c Caller) Sees(name string) bool {
	if c.Tools == nil {
		return true
	}
	for _, g := range c.Tools {
		if ok, err := doublestar.Match(g, name); err == nil && ok {
			return true
		}
	}
	return false
}

// Call is one resolved call, as the kernel hands it to a lane.
type Call struct {
	// Spec is the tool's spec; lanes read it and never change it. Spec.Name is the
	// canonical name, by which a lane finds its implementation of the tool.
	Spec *tool.Spec
	// Route is the tool's route (RouteAdapter, RouteNative or RouteShadow): a lane that
	// can run either implementation (the sandbox) runs the one it names, the native one
	// for RouteNative and the legacy command otherwise.
	Route string
	// Input is the validated input, canonical JSON.
	Input json.RawMessage
	// Dir is the directory the tool runs in: the workspace, or a shadow run's copy of it.
	Dir string
	// Stdin is the call's whole standard input (nil means empty).
	Stdin []byte
	// Caller is who calls, from the surface's authentication: the subject reaches the
	// tool (tool.Env.Caller, CMDBRIDGE_CALLER).
	Caller Caller
	// Scopes are the caller's scopes resolved against the workspace (absolute, symlinks
	// of existing prefixes resolved): what a lane that confines the call (the sandbox)
	// mounts.
	Scopes Scopes
	// Hidden are directories a lane that confines the call must hide from it (the
	// kernel's state directory).
	Hidden []string
	// Interactive says a person can answer during the call.
	Interactive bool
	// ReceiptID is the call's receipt id (the sandbox runner echoes it).
	ReceiptID string
	// Notes is where the lane leaves evidence for the call's receipt beside its Output.
	// The kernel hands every dispatched call its own; nil (a call made outside a
	// dispatch) records nothing.
	Notes *Notes
}

// Scopes are resolved directory scopes.
type Scopes struct {
	Read, Write []string
}

// Notes are what a call's lanes record beside their Output, for the receipt: a shadow
// comparison, the sandbox the call ran in, a tool's key/value notes. The lane goroutine
// records and the kernel reads, possibly after a timeout, so Notes are safe for
// concurrent use. Every method of a nil *Notes records or returns nothing.
type Notes struct {
	shadow atomic.Pointer[evidence.ShadowNote]
	sbox   atomic.Pointer[evidence.SandboxNote]

	mu sync.Mutex
	kv map[string]string
}

// Note keeps a key/value note (what a native tool leaves through tool.Env.Note); the
// last value of a key wins. The receipt's notes hold them.
func (n *Notes) Note(key, value string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.kv == nil {
		n.kv = map[string]string{}
	}
	n.kv[key] = value
}

// Values is a copy of the key/value notes, nil when there are none.
func (n *Notes) Values() map[string]string {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.kv) == 0 {
		return nil
	}
	return maps.Clone(n.kv)
}

// SetShadow keeps a shadow run's comparison (the receipt's shadow); the last one wins.
func (n *Notes) SetShadow(note *evidence.ShadowNote) {
	if n != nil {
		n.shadow.Store(note)
	}
}

// Shadow is the shadow note recorded, nil when none.
func (n *Notes) Shadow() *evidence.ShadowNote {
	if n == nil {
		return nil
	}
	return n.shadow.Load()
}

// SetSandbox keeps what a sandbox run reports of its host and profile (the receipt's
// sandbox); the last one wins.
func (n *Notes) SetSandbox(note *evidence.SandboxNote) {
	if n != nil {
		n.sbox.Store(note)
	}
}

// Sandbox is the sandbox note recorded, nil when none.
func (n *Notes) Sandbox() *evidence.SandboxNote {
	if n == nil {
		return nil
	}
	return n.sbox.Load()
}
