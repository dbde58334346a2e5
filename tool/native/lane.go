package native

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"time"

	"github.com/cmdbridge/cmdbridge/kernel/lane"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Lane is the kernel's native lane (package kernel/lane): it calls the handlers of a
// registry's tools, each with a fresh tool.Env built from its LaneEnv and the call. It
// is a lane.Binder: the input is decoded into the tool's Input struct before the call
// runs, so an input the schema accepted and the handler's struct rejects is told apart
// from a failure of the tool.
type Lane struct {
	tools *Registry
	env   LaneEnv
}

// LaneEnv is what the native lane builds every call's tool.Env from, besides the call
// itself (its directory, stdin, caller, mode and note hook). The lane reads no process
// global on a call's behalf: what a handler sees of the host is here.
type LaneEnv struct {
	// LookupEnv is the environment handlers see (nil: empty).
	LookupEnv func(string) (string, bool)
	// Runtime builds the clock and id source of one call from LookupEnv (nil: wall clock
	// and crypto/rand ids). The delivery package's deterministic runtime plugs in here.
	Runtime func(lookup func(string) (string, bool)) (now func() time.Time, ids tool.IDSource)
	// Store is every call's tool.Env.Store: the host's cache of values that outlive a
	// call (nil: none, as a one-shot call wants).
	Store *tool.Store
}

// NewLane returns the native lane over tools, its calls' environments built from env.
func NewLane(tools *Registry, env LaneEnv) Lane {
	if env.LookupEnv == nil {
		env.LookupEnv = tool.EnvFromMap(nil)
	}
	return Lane{tools: tools, env: env}
}

// Name is lane.Native.
func (Lane) Name() string { return lane.Native }

// Run decodes the input and calls the handler.
func (l Lane) Run(ctx context.Context, call lane.Call) tool.Output {
	return lane.RunBound(ctx, l, call)
}

// Bind decodes the input into the tool's Input struct and builds the call's tool.Env.
func (l Lane) Bind(call lane.Call) (func(ctx context.Context) tool.Output, error) {
	var t Tool
	var ok bool
	if l.tools != nil {
		t, ok = l.tools.Lookup(call.Spec.Name)
	}
	if !ok {
		return nil, errors.New("no native implementation")
	}
	run, err := t.Bind(call.Input)
	if err != nil {
		return nil, err
	}
	env := l.callEnv(call)
	return func(ctx context.Context) tool.Output { return run(ctx, env) }, nil
}

// callEnv builds the tool.Env of one call.
func (l Lane) callEnv(call lane.Call) *tool.Env {
	now, ids := time.Now, tool.IDSource(randomIDs{})
	if l.env.Runtime != nil {
		now, ids = l.env.Runtime(l.env.LookupEnv)
	}
	return &tool.Env{
		Dir: call.Dir, Now: now, IDs: ids, LookupEnv: l.env.LookupEnv,
		Stdin: bytes.NewReader(call.Stdin), Log: io.Discard,
		Interactive: call.Interactive, Caller: call.Caller.Subject,
		Store: l.env.Store, OnNote: call.Notes.Note,
	}
}

// randomIDs draws ids from crypto/rand.
type randomIDs struct{}

func (randomIDs) Hex(kind string, n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)[:n]
}
