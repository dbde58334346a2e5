package adapter

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"
)

// cliGlobals is every exported package-level variable of urfave/cli v2 a command could
// change, plus the contents of the three flag structs the package shares between apps
// (cli.App.Setup writes into them). Saving and restoring it keeps one command's
// customisation out of the next run.
type cliGlobals struct {
	osExiter                  func(int)
	errWriter                 io.Writer
	helpPrinter               func(io.Writer, string, interface{})
	helpPrinterCustom         func(io.Writer, string, interface{}, map[string]interface{})
	versionPrinter            func(*cli.Context)
	helpFlag, versionFlag     cli.Flag
	bashCompletionFlag        cli.Flag
	helpFlagValue             *cli.BoolFlag
	versionFlagValue          *cli.BoolFlag
	bashFlagValue             *cli.BoolFlag
	helpFlagCopy              cli.BoolFlag
	versionFlagCopy           cli.BoolFlag
	bashFlagCopy              cli.BoolFlag
	flagStringer              cli.FlagStringFunc
	flagNamePrefixer          cli.FlagNamePrefixFunc
	flagEnvHinter             cli.FlagEnvHintFunc
	flagFileHinter            cli.FlagFileHintFunc
	suggestFlag               cli.SuggestFlagFunc
	suggestCommand            cli.SuggestCommandFunc
	suggestDidYouMeanTemplate string
	appHelpTemplate           string
	commandHelpTemplate       string
	subcommandHelpTemplate    string
	markdownDocTemplate       string
	fishCompletionTemplate    string
}

func (g *cliGlobals) save() {
	g.osExiter, g.errWriter = cli.OsExiter, cli.ErrWriter
	g.helpPrinter, g.helpPrinterCustom, g.versionPrinter = cli.HelpPrinter, cli.HelpPrinterCustom, cli.VersionPrinter
	g.helpFlag, g.versionFlag, g.bashCompletionFlag = cli.HelpFlag, cli.VersionFlag, cli.BashCompletionFlag
	g.helpFlagValue, g.versionFlagValue, g.bashFlagValue = boolFlag(cli.HelpFlag), boolFlag(cli.VersionFlag), boolFlag(cli.BashCompletionFlag)
	if g.helpFlagValue != nil {
		g.helpFlagCopy = *g.helpFlagValue
	}
	if g.versionFlagValue != nil {
		g.versionFlagCopy = *g.versionFlagValue
	}
	if g.bashFlagValue != nil {
		g.bashFlagCopy = *g.bashFlagValue
	}
	g.flagStringer, g.flagNamePrefixer = cli.FlagStringer, cli.FlagNamePrefixer
	g.flagEnvHinter, g.flagFileHinter = cli.FlagEnvHinter, cli.FlagFileHinter
	g.suggestFlag, g.suggestCommand, g.suggestDidYouMeanTemplate = cli.SuggestFlag, cli.SuggestCommand, cli.SuggestDidYouMeanTemplate
	g.appHelpTemplate, g.commandHelpTemplate, g.subcommandHelpTemplate = cli.AppHelpTemplate, cli.CommandHelpTemplate, cli.SubcommandHelpTemplate
	g.markdownDocTemplate, g.fishCompletionTemplate = cli.MarkdownDocTemplate, cli.FishCompletionTemplate
}

func (g *cliGlobals) restore() {
	cli.OsExiter, cli.ErrWriter = g.osExiter, g.errWriter
	cli.HelpPrinter, cli.HelpPrinterCustom, cli.VersionPrinter = g.helpPrinter, g.helpPrinterCustom, g.versionPrinter
	cli.HelpFlag, cli.VersionFlag, cli.BashCompletionFlag = g.helpFlag, g.versionFlag, g.bashCompletionFlag
	// The structs themselves: App.Setup applies these shared flags, which writes into them.
	if g.helpFlagValue != nil {
		*g.helpFlagValue = g.helpFlagCopy
	}
	if g.versionFlagValue != nil {
		*g.versionFlagValue = g.versionFlagCopy
	}
	if g.bashFlagValue != nil {
		*g.bashFlagValue = g.bashFlagCopy
	}
	cli.FlagStringer, cli.FlagNamePrefixer = g.flagStringer, g.flagNamePrefixer
	cli.FlagEnvHinter, cli.FlagFileHinter = g.flagEnvHinter, g.flagFileHinter
	cli.SuggestFlag, cli.SuggestCommand, cli.SuggestDidYouMeanTemplate = g.suggestFlag, g.suggestCommand, g.suggestDidYouMeanTemplate
	cli.AppHelpTemplate, cli.CommandHelpTemplate, cli.SubcommandHelpTemplate = g.appHelpTemplate, g.commandHelpTemplate, g.subcommandHelpTemplate
	cli.MarkdownDocTemplate, cli.FishCompletionTemplate = g.markdownDocTemplate, g.fishCompletionTemplate
}

func boolFlag(f cli.Flag) *cli.BoolFlag {
	b, _ := f.(*cli.BoolFlag)
	return b
}

// envSaved is one variable's value before the run.
type envSaved struct {
	key, value string
	set        bool
}

// costume is the set of process globals a legacy main sees during a run, and what they
// were before. put and restore are its only operations; restore undoes everything put
// did, whatever the command changed in between.
type costume struct {
	args                  []string
	stdin, stdout, stderr *os.File
	cli                   cliGlobals
	logWriter             io.Writer
	logFlags              int
	logPrefix             string
	commandLine           *flag.FlagSet
	flagUsage             func()
	cwd                   *hostDir // set while the costume is on
	env                   []envSaved
	// environ is the whole environment before the run: restore returns to it, so what
	// the main (or a Prepare hook) sets with os.Setenv ends with the run.
	environ []string
}

// hostEnv is the host's environment while an in-process run has the process's one
// dressed (nil otherwise): subprocess-lane calls started meanwhile inherit it, never
// what the run set.
var hostEnv struct {
	sync.Mutex
	environ []string
}

// hostEnviron is the environment a subprocess of the host inherits: os.Environ(), or
// the one saved before the in-process run under way.
func hostEnviron() []string {
	hostEnv.Lock()
	defer hostEnv.Unlock()
	if hostEnv.environ != nil {
		return append([]string(nil), hostEnv.environ...)
	}
	return os.Environ()
}

// put dresses the process for run r. It never fails half-way: the only fallible step
// (saving the working directory) comes first.
func (c *costume) put(l *lane, r *run, argv []string, opts *Config) error {
	if err := l.cwd.save(); err != nil {
		return err
	}
	if opts.Dir != "" {
		if err := unix.Chdir(opts.Dir); err != nil {
			return fmt.Errorf("enter %s: %w", opts.Dir, err)
		}
	}
	c.cwd = &l.cwd

	c.args, c.stdin, c.stdout, c.stderr = os.Args, os.Stdin, os.Stdout, os.Stderr
	args := make([]string, 0, len(argv)+1)
	os.Args = append(append(args, r.argv0), argv...)
	os.Stdin, os.Stdout, os.Stderr = l.in.f, l.out.f, l.err.f

	c.cli.save()
	cli.OsExiter = l.exitHook
	cli.ErrWriter = l.err.f

	c.logWriter, c.logFlags, c.logPrefix = log.Writer(), log.Flags(), log.Prefix()
	log.SetOutput(l.err.f)
	log.SetFlags(log.LstdFlags)
	log.SetPrefix("")

	// A fresh flag.CommandLine, as a new process has. PanicOnError instead of
	// ExitOnError: the Usage hook marks the exit point, and the runner maps the panic to
	// exit 2 (0 for -help), which is what ExitOnError's os.Exit would have given.
	c.commandLine, c.flagUsage = flag.CommandLine, flag.Usage
	fs := flag.NewFlagSet(r.name, flag.PanicOnError)
	fs.Usage = l.flagUsageHook
	flag.CommandLine = fs

	hostEnv.Lock()
	c.environ = os.Environ()
	hostEnv.environ = c.environ
	hostEnv.Unlock()
	c.env = c.env[:0]
	for k, v := range opts.Env {
		prev, set := os.LookupEnv(k)
		c.env = append(c.env, envSaved{key: k, value: prev, set: set})
		_ = os.Setenv(k, v)
	}
	return nil
}

// restore undoes put. It runs in one deferred block on the main's goroutine, after the
// main ended however it ended.
func (c *costume) restore() {
	os.Args, os.Stdin, os.Stdout, os.Stderr = c.args, c.stdin, c.stdout, c.stderr
	c.cli.restore()
	log.SetOutput(c.logWriter)
	log.SetFlags(c.logFlags)
	log.SetPrefix(c.logPrefix)
	flag.CommandLine, flag.Usage = c.commandLine, c.flagUsage
	for i := len(c.env) - 1; i >= 0; i-- {
		e := c.env[i]
		if e.set {
			_ = os.Setenv(e.key, e.value)
		} else {
			_ = os.Unsetenv(e.key)
		}
	}
	hostEnv.Lock()
	if c.environ != nil {
		restoreEnviron(c.environ)
	}
	hostEnv.environ, c.environ = nil, nil
	hostEnv.Unlock()
	// Always, not only when Config.Dir was set: the main may have chdir'd itself.
	if c.cwd != nil {
		c.cwd.restore()
		c.cwd = nil
	}
	c.args, c.stdin, c.stdout, c.stderr, c.logWriter, c.commandLine, c.flagUsage = nil, nil, nil, nil, nil, nil, nil
}

// restoreEnviron makes the environment saved again: variables the run set or changed
// get their old values, variables it added are removed.
func restoreEnviron(saved []string) {
	want := make(map[string]string, len(saved))
	for _, kv := range saved {
		if k, v, ok := strings.Cut(kv, "="); ok {
			want[k] = v
		}
	}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if w, ok := want[k]; !ok {
			_ = os.Unsetenv(k)
		} else if w != v {
			_ = os.Setenv(k, w)
		}
	}
	for k, v := range want {
		if _, ok := os.LookupEnv(k); !ok {
			_ = os.Setenv(k, v)
		}
	}
}

// hostDir remembers the host's working directory by file descriptor, so it can be
// restored even if it was renamed meanwhile. The descriptor is kept across runs and
// reopened only when the host itself moved: saving costs one stat, restoring one fchdir.
type hostDir struct {
	fd       int // -1: none yet
	dev, ino uint64
}

func (d *hostDir) save() error {
	var st unix.Stat_t
	if err := unix.Stat(".", &st); err != nil {
		return fmt.Errorf("save working directory: %w", err)
	}
	if d.fd >= 0 && uint64(st.Dev) == d.dev && st.Ino == d.ino {
		return nil
	}
	fd, err := unix.Open(".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("save working directory: %w", err)
	}
	if d.fd >= 0 {
		_ = unix.Close(d.fd)
	}
	d.fd, d.dev, d.ino = fd, uint64(st.Dev), st.Ino
	return nil
}

func (d *hostDir) restore() { _ = unix.Fchdir(d.fd) }
