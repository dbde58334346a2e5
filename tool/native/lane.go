package native

import (
	"bytes"
	"context"
	"errors"

	"github.com/cmdbridge/cmdbridge/kernel/lane"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Lane is the kernel's native lane (package kernel/lane): it calls the handlers of a
// registry's tools, each with a fresh tool.Env. It is a lane.Binder: the input is
// decoded into the tool's Input struct before the call runs, so an input the schema
// accepted and the handler's struct rejects is told apart from a failure of the tool.
type Lane struct {
	tools *Registry
	env   func(interactive bool) *tool.Env
}

// NewLane returns the native lane over tools; env builds the tool.Env of one call (its
// clock, ids, environment and store), whose directory, stdin, caller and note hook the
// lane then sets from the call.
func NewLane(tools *Registry, env func(interactive bool) *tool.Env) Lane {
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
	env := l.env(call.Interactive)
	env.Dir = call.Dir
	env.Stdin = bytes.NewReader(call.Stdin)
	env.Caller = call.Caller.Subject
	env.OnNote = call.Notes.Note
	return func(ctx context.Context) tool.Output { return run(ctx, env) }, nil
}
