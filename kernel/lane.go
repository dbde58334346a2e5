package kernel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// Lane runs calls the kernel has already governed, validated, scoped and recorded. The
// kernel has one lane per name (LaneAdapter, LaneSubprocess, LaneNative, LaneSandbox);
// a shadow-routed call runs on a decorator over its lane. A lane never refuses on
// policy grounds: by the time it runs, the call is allowed.
type Lane interface {
	// Name is the lane's name, the one a receipt records and Request.Lane forces.
	Name() string
	// Run runs one call under ctx (the call's deadline) and returns its Output. A lane
	// that cannot run the call (no implementation of its kind) returns a failure.
	Run(ctx context.Context, call LaneCall) tool.Output
}

// LaneCall is one resolved call, as the kernel hands it to a lane.
type LaneCall struct {
	// Spec is the tool's spec; lanes read it and never change it.
	Spec *tool.Spec
	// Route is the tool's route (RouteAdapter, RouteNative or RouteShadow): the sandbox
	// lane runs the implementation it names.
	Route string
	// Command is the legacy command serving the tool (nil: none).
	Command *legacy.Command
	// Native is the tool's native implementation (nil: none).
	Native *native.Tool
	// Input is the validated input, canonical JSON.
	Input json.RawMessage
	// Dir is the directory the tool runs in: the workspace, or a shadow run's copy of it.
	Dir string
	// Stdin is the call's whole standard input (Request.Stdin; nil means empty).
	Stdin []byte
	// Caller is who calls, from the surface's authentication: the subject reaches the
	// tool (tool.Env.Caller, CMDBRIDGE_CALLER), the scopes bound the sandbox.
	Caller Caller
	// Interactive says a person can answer during the call.
	Interactive bool
	// ReceiptID is the call's receipt id (the sandbox runner echoes it).
	ReceiptID string
	// Notes is where the lane leaves evidence for the call's receipt beside its Output
	// (a shadow comparison, the sandbox it ran in, a tool's key/value notes). The
	// kernel hands every dispatched call its own; nil (a call made outside a dispatch)
	// records nothing.
	Notes *LaneNotes
}

// LaneNotes are what a call's lanes record beside their Output, for the receipt: any
// lane, in any package, records through these methods, and the kernel reads them when
// the call finishes. The lane goroutine records and the call reads, possibly after a
// timeout, so a LaneNotes is safe for concurrent use. Every method of a nil *LaneNotes
// records or returns nothing.
type LaneNotes struct {
	shadow atomic.Pointer[evidence.ShadowNote]
	sbox   atomic.Pointer[evidence.SandboxNote]

	mu sync.Mutex
	kv map[string]string
}

// Note keeps a key/value note (what a native tool leaves through tool.Env.Note); the
// last value of a key wins. The receipt's notes hold them.
func (n *LaneNotes) Note(key, value string) {
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
func (n *LaneNotes) Values() map[string]string {
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
func (n *LaneNotes) SetShadow(note *evidence.ShadowNote) {
	if n != nil {
		n.shadow.Store(note)
	}
}

// Shadow is the shadow note recorded, nil when none.
func (n *LaneNotes) Shadow() *evidence.ShadowNote {
	if n == nil {
		return nil
	}
	return n.shadow.Load()
}

// SetSandbox keeps what a sandbox run reports of its host and profile (the receipt's
// sandbox); the last one wins.
func (n *LaneNotes) SetSandbox(note *evidence.SandboxNote) {
	if n != nil {
		n.sbox.Store(note)
	}
}

// Sandbox is the sandbox note recorded, nil when none.
func (n *LaneNotes) Sandbox() *evidence.SandboxNote {
	if n == nil {
		return nil
	}
	return n.sbox.Load()
}

// binder is a lane that can prepare a call before running it: the native lane decodes
// the input into the tool's Input struct in the caller's goroutine, so an input the
// schema accepted and the lane rejects is told apart from a failure of the tool.
type binder interface {
	bind(call LaneCall) (func(ctx context.Context) tool.Output, error)
}

// bind prepares call on l: through its own bind when it has one, else a plain Run.
func bind(l Lane, call LaneCall) (func(ctx context.Context) tool.Output, error) {
	if b, ok := l.(binder); ok {
		return b.bind(call)
	}
	return func(ctx context.Context) tool.Output { return l.Run(ctx, call) }, nil
}

// runBound is Run for a binder: a rejected input is INVALID_INPUT.
func runBound(ctx context.Context, b binder, call LaneCall) tool.Output {
	run, err := b.bind(call)
	if err != nil {
		return tool.Fail(tool.CodeInvalidInput, "%s: %v", call.Spec.Name, err)
	}
	return run(ctx)
}

// legacyLane runs legacy commands through the adapter package: in-process under the
// costume (LaneAdapter, which moves a subprocess-tier or unanalysed command to a
// subprocess and says why in the metadata) or as a real process (LaneSubprocess).
type legacyLane struct {
	name string
	// opts are Config.Legacy; Dir and Stdin are set per call.
	opts adapter.Options
}

// Name is LaneAdapter or LaneSubprocess.
func (l legacyLane) Name() string { return l.name }

// Run runs call.Command with the call's directory and stdin, and the caller's subject as
// CMDBRIDGE_CALLER on top of the declared environment, with the jail the context
// carries as proctree.JailEnv, so a command run as a real process spawns its
// workspace code there too.
func (l legacyLane) Run(ctx context.Context, call LaneCall) tool.Output {
	if call.Command == nil {
		return tool.Fail(tool.CodeExecutionFailed, "%s: no legacy command for lane %s", call.Spec.Name, l.name)
	}
	opts := l.opts
	opts.Dir, opts.Stdin = call.Dir, call.Stdin
	opts.Env = tool.WithCaller(opts.Env, call.Caller.Subject)
	if j, _ := proctree.JailFrom(ctx, nil); j != nil {
		env := make(map[string]string, len(opts.Env)+1)
		for k, v := range opts.Env {
			env[k] = v
		}
		_, env[proctree.JailEnv], _ = strings.Cut(j.Environ(), "=")
		opts.Env = env
	}
	return adapter.Call(ctx, *call.Command, call.Input, l.name, opts)
}

// nativeLane calls native handlers with a tool.Env the kernel builds from its Config.
type nativeLane struct{ k *Kernel }

// Name is LaneNative.
func (nativeLane) Name() string { return LaneNative }

// Run decodes the input and calls the handler.
func (l nativeLane) Run(ctx context.Context, call LaneCall) tool.Output {
	return runBound(ctx, l, call)
}

func (l nativeLane) bind(call LaneCall) (func(ctx context.Context) tool.Output, error) {
	if call.Native == nil {
		return nil, errors.New("no native implementation")
	}
	run, err := call.Native.Bind(call.Input)
	if err != nil {
		return nil, err
	}
	env := l.k.env(call.Interactive)
	env.Dir = call.Dir
	env.Stdin = bytes.NewReader(call.Stdin)
	env.Caller = call.Caller.Subject
	env.OnNote = call.Notes.Note
	return func(ctx context.Context) tool.Output { return run(ctx, env) }, nil
}

// buildLanes makes the kernel's lanes: the built-in ones, then Config.Lanes in place of
// the built-in lane of the same name.
func (k *Kernel) buildLanes() error {
	if k.cfg.Legacy.Dir != "" || k.cfg.Legacy.Stdin != nil {
		// Silently ignoring them would run a command somewhere the host did not mean.
		return errors.New("legacy lane settings: Dir and Stdin are set per call (the workspace, Request.Stdin), not in Config.Legacy")
	}
	k.lanes = map[string]Lane{
		LaneAdapter:    legacyLane{name: LaneAdapter, opts: k.cfg.Legacy},
		LaneSubprocess: legacyLane{name: LaneSubprocess, opts: k.cfg.Legacy},
		LaneNative:     nativeLane{k: k},
		LaneSandbox:    sandboxLane{k: k, runner: k.cfg.Sandbox},
	}
	replaced := map[string]bool{}
	for _, l := range k.cfg.Lanes {
		name := l.Name()
		if _, ok := k.lanes[name]; !ok {
			return fmt.Errorf("lane %q: no such lane (want %s, %s, %s or %s)", name, LaneAdapter, LaneSubprocess, LaneNative, LaneSandbox)
		}
		if replaced[name] {
			return fmt.Errorf("lane %q: given twice", name)
		}
		replaced[name] = true
		k.lanes[name] = l
	}
	return nil
}
