package kernel

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// Config is everything a Kernel is built from.
type Config struct {
	// Workspace is the directory calls run in; relative scopes resolve against it.
	Workspace string
	// Pack names the tool pack: a spelling may carry it as a prefix
	// (software-delivery:wu_create), and the manifest and GET /tools show it. Empty: no
	// pack prefix.
	Pack string
	// Commands are the legacy commands served through Adapter (nil: none).
	Commands *legacy.Registry
	// Native are the native tools (nil: none).
	Native *native.Registry
	// Adapter serves command-backed tools (nil: AdapterBridge, the adapter package).
	Adapter Adapter
	// AdapterOptions are passed to every adapter and subprocess call.
	AdapterOptions AdapterOptions

	Governance Governance
	// Profiles are named tool subsets, laid over BuiltinProfiles (profile.go).
	Profiles map[string]Profile
	// View narrows the served tools to a profile and/or tool patterns (zero: every tool);
	// tools outside it are hidden and refused like excluded ones.
	View View
	// Policy rules. nil means DefaultPolicy(); an empty non-nil list means no rules, so
	// every call falls to the default (ask when interactive, deny when not).
	Policy []Rule
	// Approver answers "ask" decisions for interactive calls (nil: nobody can approve).
	Approver Approver
	// ApprovalTimeout bounds one approval wait (default 5 minutes).
	ApprovalTimeout time.Duration

	Evidence EvidenceConfig
	// State is where the workspace's own state lives (evidence, keys, outbox); nil means
	// statedir.Find on the workspace with LookupEnv. An older .cmdbridge/ in the
	// workspace is migrated there when New runs.
	State *statedir.Dir
	// Sandbox is the sandbox lane (nil: none; calls that need it are refused with
	// SANDBOX_UNAVAILABLE, never run unconfined).
	Sandbox SandboxRunner
	// Sandboxed lists tools that always run on the sandbox lane: names in any spelling,
	// or doublestar globs over canonical names ("git:*").
	Sandboxed []string
	// Routes override the lane per tool (any spelling): adapter, native or shadow. They
	// are laid over the native registry's routes (native.Registry.SetRoutes).
	Routes map[string]string
	// MaxParallel bounds concurrent calls inside one batch wave (default 8).
	MaxParallel int
	// MaxStdin bounds Request.Stdin in bytes (0: DefaultMaxStdin). A call whose stdin is
	// longer is refused with INVALID_INPUT before anything runs.
	MaxStdin int

	// LookupEnv is the environment native handlers see (nil: empty).
	LookupEnv func(string) (string, bool)
	// Runtime builds the clock and id source of one call from LookupEnv (nil: wall clock
	// and crypto/rand ids). The delivery package's deterministic runtime plugs in here.
	Runtime func(lookup func(string) (string, bool)) (now func() time.Time, ids tool.IDSource)
	// OnResult, when set, is called once per finished call (step 9's event hook).
	OnResult func(Request, Result)
	// Store is handed to every native call as tool.Env.Store: the host's cache of values
	// that outlive a call (a corpus's warm workspace index). nil: none, as a one-shot
	// call wants. The host owns it and closes it after the kernel.
	Store *tool.Store
}

// DefaultMaxStdin is the stdin bound of a kernel whose Config.MaxStdin is zero: 1 MiB.
const DefaultMaxStdin = 1 << 20

// Governance lists tool names in any spelling.
type Governance struct {
	// Allowed: nil = no allowlist configured (everything not disabled or excluded is
	// allowed); a non-nil empty list denies every tool.
	Allowed []string `json:"allowed" yaml:"allowed"`
	// Disabled tools are known but refused with TOOL_DISABLED.
	Disabled []string `json:"disabled,omitempty" yaml:"disabled,omitempty"`
	// Excluded tools are refused like disabled ones and are hidden from Tools and
	// Manifest.
	Excluded []string `json:"excluded,omitempty" yaml:"excluded,omitempty"`
}

// EvidenceConfig configures the receipt log.
type EvidenceConfig struct {
	// Dir defaults to the state directory's evidence/ (statedir).
	Dir string
	// CheckpointEvery signs a checkpoint every N records (default 1000) and at Close.
	CheckpointEvery int
	// Sync is evidence.SyncGroup (durable, the default) or evidence.SyncBuffered.
	Sync evidence.SyncMode
	// Witness is a file outside the workspace that receives a copy of every signed
	// checkpoint (evidence.Options.Witness); `cmdbridge evidence verify --witness`
	// checks the log against it.
	Witness string
}

// AdapterOptions are the adapter settings the kernel passes on each call.
type AdapterOptions struct {
	// Binary is the program the subprocess lane runs (adapter.Options.Binary).
	Binary string
	// Prefix are argv words written between Binary and the command (adapter.Options.Prefix).
	Prefix []string
	// InProcess lets the adapter lane run commands nobody analysed in-process
	// (adapter.Options.InProcess); without it they run on the subprocess lane whenever
	// Binary is set.
	InProcess bool
	// MaxOutput caps captured stdout and stderr (0: the adapter's default).
	MaxOutput int
	// Env holds declared environment variables for the command.
	Env map[string]string
}

// AdapterCall is one call handed to an Adapter.
type AdapterCall struct {
	Command legacy.Command
	Input   json.RawMessage
	// Lane is "adapter" or "subprocess".
	Lane    string
	Dir     string
	Options AdapterOptions
	// Stdin is the command's whole standard input (Request.Stdin; nil means empty).
	Stdin []byte
}

// Adapter is the bridge to legacy commands (the adapter package, see AdapterBridge).
type Adapter interface {
	Spec(c legacy.Command) (tool.Spec, error)
	Call(ctx context.Context, call AdapterCall) tool.Output
}
