package kernel

import (
	"context"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// AdapterBridge is the Adapter backed by the adapter package: specs derived from the
// commands' flags, calls run in-process (lane adapter) or as a delivery subprocess (lane
// subprocess). It is the default when Config.Adapter is nil.
type AdapterBridge struct{}

// Spec returns adapter.Spec(c).
func (AdapterBridge) Spec(c legacy.Command) (tool.Spec, error) { return adapter.Spec(c) }

// Call runs the call through adapter.Call.
func (AdapterBridge) Call(ctx context.Context, call AdapterCall) tool.Output {
	return adapter.Call(ctx, call.Command, call.Input, call.Lane, adapter.Options{
		Dir: call.Dir, Env: call.Options.Env, MaxOutput: call.Options.MaxOutput, Binary: call.Options.Binary,
		Prefix: call.Options.Prefix, InProcess: call.Options.InProcess, Stdin: call.Stdin,
	})
}
