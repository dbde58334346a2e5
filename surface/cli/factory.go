package cli

import (
	"context"
	"io"
	"os"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
)

// factory is what every command's constructor is handed (gh's cmdutil.Factory): the
// Host the command line serves and the streams it reads and prints on. A command reads
// the host from here, never from the app's Metadata or a package variable, so two
// command lines of one process never share anything.
type factory struct {
	Host Host
	IO   ioStreams
}

// ioStreams are the streams of one command line: In is this process's stdin, Out and
// ErrOut the writers handed to [Main].
type ioStreams struct {
	In          io.Reader
	Out, ErrOut io.Writer
}

// factoryKey is the context key under which [Main] hands the factory down the run, for
// what is reached from a *ucli.Context alone: subcommands of other packages ([HostOf])
// and the kernel construction (openKernel), which read the host from the context.
type factoryKey struct{}

// hostOf is the Host of the command line c runs in.
func hostOf(c *ucli.Context) Host {
	if c != nil && c.Context != nil {
		if f, ok := c.Context.Value(factoryKey{}).(*factory); ok {
			return f.Host
		}
	}
	return Host{}
}

// newFactory is the factory of a command line serving host on the given writers: the
// host's defaults filled in.
func newFactory(host Host, stdout, stderr io.Writer) *factory {
	return &factory{Host: host.withDefaults(), IO: ioStreams{In: os.Stdin, Out: stdout, ErrOut: stderr}}
}

// withContext is ctx carrying f, which hostOf finds.
func (f *factory) withContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, factoryKey{}, f)
}

// kernelConfig is the configuration openKernel builds a kernel from: the one name the
// commands use for it, so a change of the kernel's construction changes this line.
type kernelConfig = assemble.Config

// kernelSetting adjusts the configuration of the kernel a command opens (a view, a
// store, a hook), after the workspace's config file is applied.
type kernelSetting = func(*kernelConfig)

// kernelOpener opens the kernel of the workspace the command line names; the caller
// closes it.
type kernelOpener func(settings ...kernelSetting) (*kernel.Kernel, error)

// kernelOf is the kernelOpener of the parsed command line c (openKernel).
func kernelOf(c *ucli.Context) kernelOpener {
	return func(settings ...kernelSetting) (*kernel.Kernel, error) { return openKernel(c, settings...) }
}

// stateDirOf finds the state directory of the workspace the parsed command line c
// names (stateOf).
func stateDirOf(c *ucli.Context) func() (statedir.Dir, error) {
	return func() (statedir.Dir, error) { return stateOf(c) }
}

// workspaceOf is the workspace directory the parsed command line c names, which need
// not exist (workspaceDir).
func workspaceOf(c *ucli.Context) func() (string, error) {
	return func() (string, error) { return workspaceDir(c) }
}
