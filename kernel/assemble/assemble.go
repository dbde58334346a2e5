package assemble

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/kernel/shadow"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// Config is what a host builds a kernel from: the kernel's own configuration, and the
// registries and settings of what its lanes run.
type Config struct {
	// Config is the kernel's configuration. Kernel adds the registries' tools to its
	// Tools and the native registry's routes under its BaseRoutes, fills its Lanes
	// (which must be empty: a replacement lane goes in Lanes below), and plugs package
	// kernel/shadow's runs in as its Shadow when that is nil.
	kernel.Config

	// Commands are the legacy commands, served on the adapter and subprocess lanes; their
	// specs are derived by the adapter package (nil: none).
	Commands *legacy.Registry
	// Native are the native tools (nil: none); their routes (native.Registry.Routes)
	// become the kernel's base routes.
	Native *native.Registry
	// Legacy configures the lanes that run legacy commands (adapter.Config): Binary and
	// Prefix are the program the subprocess lane runs, RunUnanalysed lets commands nobody
	// analysed run in-process, MaxOutput caps captured output, and Env holds the declared
	// environment (the sandbox lane's too). Dir and Stdin are per call (the workspace,
	// Request.Stdin); setting them fails Kernel.
	Legacy adapter.Config
	// Sandbox is what the sandbox lane runs calls through (nil: none; calls that need it
	// are refused with SANDBOX_UNAVAILABLE, never run unconfined).
	Sandbox sandbox.CallRunner
	// Runtime builds the clock and id source of one native call from the kernel's
	// LookupEnv (nil: wall clock and crypto/rand ids); native.LaneEnv.Runtime. The
	// delivery package's deterministic runtime plugs in here.
	Runtime func(lookup func(string) (string, bool)) (now func() time.Time, ids tool.IDSource)
	// Store is handed to every native call as tool.Env.Store: the host's cache of values
	// that outlive a call (a corpus's warm workspace index). nil: none, as a one-shot
	// call wants. The host owns it and closes it after the kernel.
	Store *tool.Store
	// Lanes replace the default lane of the same name (kernel.LaneAdapter,
	// LaneSubprocess, LaneNative, LaneSandbox); tests plug a fake lane here. Another
	// name, or a name given twice, fails Kernel. (The field hides kernel.Config.Lanes,
	// which Kernel fills with the complete set.)
	Lanes []kernel.Lane
}

// Kernel builds the kernel cfg describes: the commands and native tools as the kernel's
// tool descriptions (kernel.Source; a command's spec derived by the adapter), the native
// registry's routes as its base routes, its four lanes, each from the package that runs
// it (adapter.Lane for the adapter and subprocess lanes, native.Lane, sandbox.Lane), a
// lane of cfg.Lanes in place of the default of its name, and the shadow decorator of
// package kernel/shadow unless cfg.Shadow plugs in another. It fails where kernel.New
// fails, and on Legacy settings that are per call.
func Kernel(cfg Config) (*kernel.Kernel, error) {
	k := cfg.Config
	switch {
	case cfg.Legacy.Dir != "" || cfg.Legacy.Stdin != nil:
		// Silently ignoring them would run a command somewhere the host did not mean.
		return nil, errors.New("kernel: legacy lane settings: Dir and Stdin are set per call (the workspace, Request.Stdin), not in Config.Legacy")
	case len(k.Lanes) > 0:
		return nil, errors.New("kernel: lanes: assemble.Config.Lanes replaces a default lane; kernel.Config.Lanes is filled here")
	}
	k.Tools = append(slices.Clip(k.Tools), sources(cfg.Commands, cfg.Native)...)
	if cfg.Native != nil {
		routes := cfg.Native.Routes()
		maps.Copy(routes, k.BaseRoutes) // the host's own base routes win
		k.BaseRoutes = routes
	}
	var err error
	if k.Lanes, err = lanes(cfg); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	if k.Shadow == nil {
		k.Shadow = shadowRuns
	}
	return kernel.New(k)
}

// shadowRuns are package kernel/shadow's runs for a kernel whose state directory is
// state: the copies they keep never hold it.
func shadowRuns(state statedir.Dir) (kernel.Shadows, error) { return shadow.New(state.Root), nil }

// sources describes commands (their specs derived by the adapter) and the tools of
// natives as the kernel's tool descriptions. Either may be nil.
func sources(commands *legacy.Registry, natives *native.Registry) []kernel.Source {
	var out []kernel.Source
	if commands != nil {
		for _, c := range commands.All() {
			out = append(out, kernel.Source{Kind: kernel.SourceCommand, Name: c.Name, Aliases: c.Aliases, Domain: c.Domain,
				Spec: func() (tool.Spec, error) { return legacySpec(c) }})
		}
	}
	if natives != nil {
		for _, t := range natives.All() {
			out = append(out, kernel.Source{Kind: kernel.SourceNative, Name: t.Spec.Name, Domain: t.Spec.Domain,
				Spec: func() (tool.Spec, error) { return t.Spec, nil }})
		}
	}
	return out
}

// legacySpec is adapter.Spec(c), a panic (in the command's New, say) turned into an
// error.
func legacySpec(c legacy.Command) (spec tool.Spec, err error) {
	defer func() {
		if r := recover(); r != nil {
			spec, err = tool.Spec{}, fmt.Errorf("deriving its spec panicked: %v", r)
		}
	}()
	return adapter.Spec(c)
}

// lanes are the lanes Kernel gives the kernel: the defaults, each from its own package,
// then cfg.Lanes in place of the default of the same name.
func lanes(cfg Config) ([]kernel.Lane, error) {
	all := []kernel.Lane{
		adapter.NewLane(kernel.LaneAdapter, cfg.Commands, cfg.Legacy),
		adapter.NewLane(kernel.LaneSubprocess, cfg.Commands, cfg.Legacy),
		native.NewLane(cfg.Native, native.LaneEnv{LookupEnv: cfg.LookupEnv, Runtime: cfg.Runtime, Store: cfg.Store}),
		sandbox.NewLane(cfg.Sandbox, cfg.Legacy.Env),
	}
	replaced := map[string]bool{}
	for _, l := range cfg.Lanes {
		name := l.Name()
		i := slices.IndexFunc(all, func(l kernel.Lane) bool { return l.Name() == name })
		if i < 0 {
			return nil, fmt.Errorf("lane %q: no such lane (want %s, %s, %s or %s)", name, kernel.LaneAdapter, kernel.LaneSubprocess, kernel.LaneNative, kernel.LaneSandbox)
		}
		if replaced[name] {
			return nil, fmt.Errorf("lane %q: given twice", name)
		}
		replaced[name] = true
		all[i] = l
	}
	return all, nil
}
