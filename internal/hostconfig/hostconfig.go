// Package hostconfig is what an adopter configures of a program that links the
// serving stack: the adopter's adoptconfig.Config and what only such a program can use.
// host.Config is this Config, and surface/cli.Host embeds it, so every setting is
// declared once, here or in adoptconfig, and the command line reads the adopter's own
// values, never copies of them.
//
// It declares fields and nothing else: package host gives them their meaning (defaults,
// checks, the registry served) and hands the command line the result. It imports no
// surface and no host, so surface/cli embeds it without a cycle.
package hostconfig

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/adoptconfig"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// Config is what the in-process line (host.Command, host.Main) is configured with: the
// adopter's adoptconfig.Config (cmdbridge.Config), which says how the commands become
// tools, and what only a program that links the serving stack can use — its own Go run
// in-process, native implementations, registries of legacy commands. Every field is
// optional.
type Config struct {
	adoptconfig.Config
	// Commands are legacy commands registered one app per command (the corpus's shape),
	// served besides (or, for host.Main with a nil constructor, instead of) the app's
	// tree.
	Commands *legacy.Registry
	// Native are native implementations of some tools, with their routes
	// (native.Registry.SetRoutes). Default: none.
	Native *native.Registry
	// Tiers is a tier table written by `bridgecheck -tiers` in your repository (embed
	// it): commands it judged safe may run in-process, the others never do.
	Tiers []byte
	// InProcess is your own verdict: tools (names or doublestar globs over them, "*" for
	// all) that may run in-process on the adapter lane although no tier table judged
	// them. List only commands you know never end the process themselves (os.Exit,
	// log.Fatal or cli.Show*AndExit called directly): the others stay on the subprocess
	// lane. A verdict of the tier table wins over it.
	InProcess []string
	// New builds the app host.Command is appended to, fresh on every call, as your main
	// builds it before appending the bridge (your newApp): with it, the tools you vouch
	// for (InProcess, Tiers) run in-process. Without it, every call of host.Command runs
	// on the subprocess lane, since the running app cannot be run twice. host.Main takes
	// its constructor as an argument and ignores New.
	New func() *cli.App
	// Prepare is what your main does around app.Run, for the runs that skip your main:
	// the in-process lane and host.Main re-running the app. It runs before each, with the
	// run's arguments (os.Args[1:]: the command's path, flags and positionals, as your
	// main would see them), where your main loads a .env file or pre-parses a flag; it
	// returns finish, which takes the error Run returned (nil on success), prints what
	// your main prints and returns the exit status your main exits with. A nil finish
	// (or a nil Prepare): print a non-nil error and a newline on stderr, exit 1.
	//
	// Prepare and finish run inside the in-process run, one run at a time: os.Args,
	// os.Stdout/os.Stderr (the run's capture) and the working directory (the workspace)
	// are the run's. They may set environment variables (os.Setenv): the lane puts the
	// whole environment back when the run ends, and subprocesses started meanwhile
	// inherit the host's environment, not the run's. They must not call os.Exit (return
	// the status instead) nor leave goroutines running.
	Prepare func(args []string) (finish func(err error) int)
	// OnError handles the error the app's Run returns on the in-process lane and when
	// host.Main re-runs the app; the run then exits 1.
	//
	// Deprecated: use Prepare, whose finish also chooses the exit status:
	// Prepare: func([]string) func(error) int { return finish } with finish calling
	// your OnError and returning 1 when the error is not nil. Ignored when Prepare is set.
	OnError func(err error)
	// ScriptEnv are the variables every parity script sets (the program's pinned clock
	// and seed, say), and ScriptPassEnv the other script variables its calls get
	// (parity.Suite.Env and PassEnv; `bridge parity`).
	ScriptEnv     map[string]string
	ScriptPassEnv []string
	// Initialisms are your words that `bridge scaffold` writes in capitals in Go names,
	// besides Go's own (id, url, json…), and ScaffoldRegistry the registry it registers
	// tools into when --registry names none (IMPORTPATH.NAME of a func(native.Tool) or a
	// *native.Registry; empty: your module's one *native.Registry).
	Initialisms      []string
	ScaffoldRegistry string
	// Runtime builds the clock and id source of a native call from its environment (nil:
	// wall clock and random ids).
	Runtime func(lookup func(string) (string, bool)) (now func() time.Time, ids tool.IDSource)
	// Subcommands are more subcommands of the command line, such as host.WrapCommand
	// (cmd/cmdbridge has it). Default: none.
	Subcommands []*cli.Command
	// Hosted are the subcommands of the command lines this executable serves for other
	// programs, which are described to it rather than linked: one adopted with the light
	// line (host.Main as `__adopted`, host.Adopted) and one wrapped (host.WrapCommand's
	// Config). cmd/cmdbridge gives them status (surface/cli/statuscmd), which needs
	// nothing but the description. Default: none.
	Hosted []*cli.Command
}
