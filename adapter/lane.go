package adapter

import (
	"context"
	"maps"
	"strings"

	kernellane "github.com/cmdbridge/cmdbridge/kernel/lane"
	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Lane is a kernel lane (package kernel/lane) that runs the legacy commands of a
// registry: in-process under the costume (lane.Adapter, which moves a subprocess-tier
// or unanalysed command to a subprocess and says why in the metadata, see [Call]) or
// as a real process (lane.Subprocess).
type Lane struct {
	name     string
	commands *legacy.Registry
	opts     Config
}

// NewLane returns the lane name (kernellane.Adapter or kernellane.Subprocess) over commands, run
// with opts; opts.Dir and opts.Stdin are replaced by each call's.
func NewLane(name string, commands *legacy.Registry, opts Config) Lane {
	return Lane{name: name, commands: commands, opts: opts}
}

// Name is the lane's name.
func (l Lane) Name() string { return l.name }

// Run runs the command named by the call's tool with the call's directory and stdin,
// and the caller's subject as CMDBRIDGE_CALLER on top of the declared environment, with
// the jail the context carries as proctree.JailEnv, so a command run as a real process
// spawns its workspace code there too.
func (l Lane) Run(ctx context.Context, call kernellane.Call) tool.Output {
	var c legacy.Command
	var ok bool
	if l.commands != nil {
		c, ok = l.commands.Lookup(call.Spec.Name)
	}
	if !ok {
		return tool.Fail(tool.CodeExecutionFailed, "%s: no legacy command for lane %s", call.Spec.Name, l.name)
	}
	opts := l.opts
	opts.Dir, opts.Stdin = call.Dir, call.Stdin
	opts.Env = tool.WithCaller(opts.Env, call.Caller.Subject)
	if j, _ := proctree.JailFrom(ctx, nil); j != nil {
		env := make(map[string]string, len(opts.Env)+1)
		maps.Copy(env, opts.Env)
		_, env[proctree.JailEnv], _ = strings.Cut(j.Environ(), "=")
		opts.Env = env
	}
	return Call(ctx, c, call.Input, l.name, opts)
}
