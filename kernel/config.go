package kernel

import (
	"time"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
)

// Config is everything a Kernel is built from.
type Config struct {
	// Workspace is the directory calls run in; relative scopes resolve against it.
	Workspace string
	// Pack names the tool pack: a spelling may carry it as a prefix
	// (software-delivery:wu_create), and the manifest and GET /tools show it. Empty: no
	// pack prefix.
	Pack string
	// Tools are the implementations the kernel serves, each described by its name,
	// aliases, domain, spec and kind (Source); package kernel/assemble describes a
	// host's registries this way. A name given twice for one kind fails New.
	Tools []Source
	// BaseRoutes are routes per tool (adapter, native or shadow) laid over
	// DefaultRoutes: the native registry's own (native.Registry.Routes). A tool this
	// kernel does not serve is skipped, so one table can describe a whole corpus.
	BaseRoutes map[string]string
	// Lanes are the kernel's lanes, the complete set: at most one for each of
	// LaneAdapter, LaneSubprocess, LaneNative and LaneSandbox, the kernel holding none
	// of its own (package kernel/assemble builds the usual four). Another name, or a
	// name given twice, fails New; a call dispatched to a lane the kernel lacks fails
	// with EXECUTION_FAILED.
	Lanes []Lane
	// Shadow builds what serves shadow-routed calls, once, from the state directory New
	// finds (their copies of the workspace never hold it): a decorator of the serving
	// lane with the native lane, counted in Kernel.ShadowStats and closed by
	// Kernel.Close (Shadows). Package kernel/assemble plugs in package kernel/shadow's
	// when this is nil. nil: the kernel has no shadow runs, and a tool routed shadow
	// fails New, as does one on a kernel without a native lane: a shadow route is never
	// served without its comparison.
	Shadow func(state statedir.Dir) (Shadows, error)

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
	// UnconfinedWorkspaceCode is the operator's consent to run the commands a call
	// spawns for workspace code (gates, wu:sandbox's command) with the server's own
	// rights where bubblewrap is missing. Without it such a call fails, saying what to
	// install; with bubblewrap present it changes nothing (see Kernel.Jail).
	UnconfinedWorkspaceCode bool
	// Hidden lists further secrets of the host (files or directories outside the state
	// directory, such as NATS credentials) that workspace code must not see; the state
	// directory and the evidence directory are always hidden.
	Hidden []string
	// Sandboxed lists tools that always run on the sandbox lane: names in any spelling,
	// or doublestar globs over canonical names ("git:*").
	Sandboxed []string
	// Routes override the lane per tool (any spelling): adapter, native or shadow. They
	// are laid over BaseRoutes and must name a tool the kernel serves.
	Routes map[string]string
	// MaxParallel bounds concurrent calls inside one batch wave (default 8).
	MaxParallel int
	// MaxStdin bounds Request.Stdin in bytes (0: DefaultMaxStdin). A call whose stdin is
	// longer is refused with INVALID_INPUT before anything runs.
	MaxStdin int

	// LookupEnv is the environment the kernel reads: where the state directory is
	// (statedir.Find) when State is nil (nil: empty). What lanes see of the environment
	// is theirs to be given (kernel/assemble hands native.Lane the same function).
	LookupEnv func(string) (string, bool)
	// OnResult, when set, is called once per finished call (step 9's event hook).
	OnResult func(Request, Result)
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
	// checkpoint (evidence.Config.Witness); `cmdbridge evidence verify --witness`
	// checks the log against it.
	Witness string
	// OnCheckpoint is handed every signed head once it is durable, with a consistency
	// proof from the head handed over before (evidence.Config.OnCheckpoint): serve
	// --nats publishes them as evidence:checkpoint events for the control plane to
	// keep. It must not block for long.
	OnCheckpoint func(evidence.Checkpoint)
}
