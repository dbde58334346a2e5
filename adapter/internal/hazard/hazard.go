package hazard

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Registry returns a fresh registry holding every hazard command.
func Registry() *legacy.Registry {
	r := legacy.NewRegistry()
	for _, c := range all {
		if err := r.Add(inProcess(c)); err != nil {
			panic(err)
		}
	}
	return r
}

// Lookup returns the hazard command with this name, panicking when there is none
// (tests name them literally).
func Lookup(name string) legacy.Command {
	for _, c := range all {
		if c.Name == name {
			return inProcess(c)
		}
	}
	panic("hazard: no command " + name)
}

// inProcess gives a hazard command the in-process tier: the tests choose each call's
// lane themselves (a command nobody analysed would go to the subprocess lane whenever a
// binary is configured).
func inProcess(c legacy.Command) legacy.Command {
	c.Tier = legacy.TierInProcess
	return c
}

var all = []legacy.Command{
	{Name: "hello", Domain: "hazard", New: newHelloApp, Main: func(ctx context.Context) { runApp(ctx, newHelloApp()) }},
	{Name: "echo", Domain: "hazard", New: newEchoApp, Main: func(ctx context.Context) { runApp(ctx, newEchoApp()) }},
	{Name: "flags", Domain: "hazard", New: newFlagsApp, Main: func(ctx context.Context) { runApp(ctx, newFlagsApp()) }},
	{Name: "big", Domain: "hazard", New: newBigApp, Main: func(ctx context.Context) { runApp(ctx, newBigApp()) }},
	{Name: "panic", Domain: "hazard", New: newPanicApp, Main: func(ctx context.Context) { runApp(ctx, newPanicApp()) }},
	{Name: "exit-goroutine", Domain: "hazard", New: newExitGoroutineApp, Main: func(ctx context.Context) { runApp(ctx, newExitGoroutineApp()) }},
	{Name: "swallow", Domain: "hazard", New: newSwallowApp, Main: func(ctx context.Context) { runApp(ctx, newSwallowApp()) }},
	{Name: "hang", Domain: "hazard", New: newHangApp, Main: func(ctx context.Context) { runApp(ctx, newHangApp()) }},
	{Name: "logs", Domain: "hazard", New: newLogsApp, Main: func(ctx context.Context) { runApp(ctx, newLogsApp()) }},
	{Name: "init-logger", Domain: "hazard", New: newInitLoggerApp, Main: func(ctx context.Context) { runApp(ctx, newInitLoggerApp()) }},
	{Name: "goflag", Domain: "hazard", New: newGoflagApp, Main: goflagMain},
	{Name: "stdin", Domain: "hazard", New: newStdinApp, Main: func(ctx context.Context) { runApp(ctx, newStdinApp()) }},
	{Name: "env", Domain: "hazard", New: newEnvApp, Main: func(ctx context.Context) { runApp(ctx, newEnvApp()) }},
	{Name: "chdir", Domain: "hazard", New: newChdirApp, Main: func(ctx context.Context) { runApp(ctx, newChdirApp()) }},
	{Name: "slice-env", Domain: "hazard", New: newSliceEnvApp, Main: func(ctx context.Context) { runApp(ctx, newSliceEnvApp()) }},
	{Name: "meddle", Domain: "hazard", New: newMeddleApp, Main: func(ctx context.Context) { runApp(ctx, newMeddleApp()) }},
	{Name: "leak", Domain: "hazard", New: newLeakApp, Main: func(ctx context.Context) { runApp(ctx, newLeakApp()) }},
}

// runApp is the legacy main shape: run on os.Args, report an error and exit 1.
func runApp(ctx context.Context, app *cli.App) {
	if err := app.RunContext(ctx, os.Args); err != nil {
		fmt.Fprintf(os.Stderr, "[%s] error: %v\n", app.Name, err)
		cli.OsExiter(1)
	}
}

func baseApp(name, usage string) *cli.App {
	return &cli.App{
		Name:                      name,
		Usage:                     usage,
		HideVersion:               true,
		DisableSliceFlagSeparator: true,
		Flags:                     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the JSON envelope"}},
	}
}

// envelope prints the corpus §2.2 JSON envelope.
func envelope(w io.Writer, command string, data any, errCode, errMsg string) {
	type failure struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details any    `json:"details"`
	}
	env := struct {
		OK       bool     `json:"ok"`
		Command  string   `json:"command"`
		Data     any      `json:"data"`
		Error    *failure `json:"error"`
		Warnings []string `json:"warnings"`
	}{OK: errCode == "", Command: command, Data: data, Warnings: []string{}}
	if errCode != "" {
		env.Error = &failure{Code: errCode, Message: errMsg}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(env)
}

// newHelloApp is the trivial command the lane benchmarks run: no flags of its own, one
// line of output.
func newHelloApp() *cli.App {
	return &cli.App{
		Name:        "hello",
		Usage:       "print hello and the first argument",
		HideVersion: true,
		Action: func(c *cli.Context) error {
			fmt.Fprintln(os.Stdout, "hello", c.Args().First())
			return nil
		},
	}
}

func newEchoApp() *cli.App {
	app := baseApp("echo", "print the arguments")
	app.ArgsUsage = "[<ARGS>...]"
	app.Metadata = map[string]any{legacy.MetaReadOnly: true, legacy.MetaIdempotent: true}
	app.Flags = append(app.Flags,
		&cli.BoolFlag{Name: "fail", Usage: "fail with NOT_FOUND"},
		&cli.BoolFlag{Name: "lie", Usage: "report ok but exit 1"},
		&cli.StringFlag{Name: "warn", Usage: "add a warning"},
	)
	app.Action = func(c *cli.Context) error {
		args := c.Args().Slice()
		if !c.Bool("json") {
			fmt.Println(strings.Join(args, " "))
			return nil
		}
		if c.Bool("fail") {
			fmt.Fprintln(os.Stderr, "[echo] error: nothing here")
			envelope(os.Stdout, "echo", nil, "NOT_FOUND", "nothing here")
			return cli.Exit("", 1)
		}
		if w := c.String("warn"); w != "" {
			fmt.Fprintf(os.Stderr, "[echo] warning: %s\n", w)
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			_ = enc.Encode(map[string]any{"ok": true, "command": "echo", "data": map[string]any{"args": args}, "error": nil, "warnings": []string{w}})
			return nil
		}
		envelope(os.Stdout, "echo", map[string]any{"args": args}, "", "")
		if c.Bool("lie") {
			return cli.Exit("", 1)
		}
		return nil
	}
	return app
}

// level is a Generic flag value with a fixed set of words (a legacy.Choices).
type level struct{ v string }

func (l *level) Set(s string) error {
	for _, c := range l.Choices() {
		if s == c {
			l.v = s
			return nil
		}
	}
	return fmt.Errorf("expected one of %s", strings.Join(l.Choices(), ", "))
}
func (l *level) String() string    { return l.v }
func (l *level) Choices() []string { return []string{"low", "mid", "high"} }

// pair is a Generic flag value without fixed words.
type pair struct{ v string }

func (p *pair) Set(s string) error { p.v = s; return nil }
func (p *pair) String() string     { return p.v }

func newFlagsApp() *cli.App {
	app := baseApp("flags", "declare every urfave/cli flag type and print what was parsed")
	app.ArgsUsage = "<NAME> [<EXTRA>...] -- [<COMMAND>...]"
	app.Metadata = map[string]any{
		legacy.MetaDestructive: true,
		legacy.MetaNetwork:     true,
		legacy.MetaPaths:       map[string]string{"path": "write", "name": "read"},
	}
	app.Flags = append(app.Flags,
		&cli.StringFlag{Name: "title", Aliases: []string{"t"}, Usage: "a string", Required: true},
		&cli.PathFlag{Name: "path", Usage: "a path", Value: "out.txt"},
		&cli.BoolFlag{Name: "force", Usage: "a switch"},
		&cli.BoolFlag{Name: "no-strict", Usage: "a switch with a dash"},
		&cli.IntFlag{Name: "count", Usage: "an int", Value: 3},
		&cli.Int64Flag{Name: "big", Usage: "an int64"},
		&cli.UintFlag{Name: "small", Usage: "a uint"},
		&cli.Uint64Flag{Name: "huge", Usage: "a uint64"},
		&cli.Float64Flag{Name: "ratio", Usage: "a float", Value: 0.5},
		&cli.DurationFlag{Name: "wait", Usage: "a duration", Value: 30 * time.Second},
		&cli.TimestampFlag{Name: "since", Usage: "a date", Layout: "2006-01-02"},
		&cli.GenericFlag{Name: "level", Usage: "a choice", Value: &level{v: "mid"}},
		&cli.GenericFlag{Name: "pair", Usage: "a free generic", Value: &pair{}},
		&cli.StringSliceFlag{Name: "code-paths", Usage: "repeatable strings"},
		&cli.IntSliceFlag{Name: "ints", Usage: "repeatable ints"},
		&cli.Int64SliceFlag{Name: "int64s", Usage: "repeatable int64s"},
		&cli.Float64SliceFlag{Name: "floats", Usage: "repeatable floats"},
		&cli.UintSliceFlag{Name: "uints", Usage: "repeatable uints"},
		&cli.Uint64SliceFlag{Name: "uint64s", Usage: "repeatable uint64s"},
		&cli.StringFlag{Name: "secret", Usage: "hidden", Hidden: true},
		&cli.StringFlag{Name: "extra", Usage: "a flag sharing a positional's name"},
	)
	app.Action = func(c *cli.Context) error {
		var since any
		if t := c.Timestamp("since"); t != nil {
			since = t.Format("2006-01-02")
		}
		data := map[string]any{
			"title": c.String("title"), "path": c.Path("path"), "force": c.Bool("force"),
			"no_strict": c.Bool("no-strict"), "count": c.Int("count"), "big": c.Int64("big"),
			"small": c.Uint("small"), "huge": c.Uint64("huge"), "ratio": c.Float64("ratio"),
			"wait": c.Duration("wait").String(), "since": since,
			"level": c.Generic("level").(*level).v, "pair": c.Generic("pair").(*pair).v,
			"code_paths": c.StringSlice("code-paths"), "ints": c.IntSlice("ints"),
			"int64s": c.Int64Slice("int64s"), "floats": c.Float64Slice("floats"),
			"uints": c.UintSlice("uints"), "uint64s": c.Uint64Slice("uint64s"),
			"extra": c.String("extra"), "args": c.Args().Slice(),
		}
		envelope(os.Stdout, "flags", data, "", "")
		return nil
	}
	return app
}

func newBigApp() *cli.App {
	app := baseApp("big", "print 10 MiB")
	app.Flags = append(app.Flags, &cli.IntFlag{Name: "mib", Value: 10, Usage: "how many MiB"})
	app.Action = func(c *cli.Context) error {
		chunk := []byte(strings.Repeat("0123456789abcdef", 4096)) // 64 KiB
		for i := 0; i < c.Int("mib")*16; i++ {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return err
			}
		}
		fmt.Fprintln(os.Stderr, "[big] done")
		return nil
	}
	return app
}

func newPanicApp() *cli.App {
	app := baseApp("panic", "panic in the action")
	app.Action = func(c *cli.Context) error {
		fmt.Println("before")
		defer fmt.Println("deferred print")
		panic("boom")
	}
	return app
}

func newExitGoroutineApp() *cli.App {
	app := baseApp("exit-goroutine", "exit from a goroutine the action starts")
	app.Action = func(c *cli.Context) error {
		fmt.Println("parent")
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			fmt.Println("child")
			cli.OsExiter(3)
			fmt.Println("child after exit")
		}()
		wg.Wait()
		fmt.Println("parent after exit")
		return nil
	}
	return app
}

func newSwallowApp() *cli.App {
	app := baseApp("swallow", "swallow the exit with recover() and keep going")
	app.Action = func(c *cli.Context) error {
		func() {
			defer func() { _ = recover() }()
			fmt.Println("before exit")
			cli.OsExiter(4)
		}()
		fmt.Println("after exit")
		fmt.Fprintln(os.Stderr, "[swallow] still running")
		return cli.Exit("[swallow] second exit", 5)
	}
	return app
}

func newHangApp() *cli.App {
	app := baseApp("hang", "ignore the context and sleep (until Release at most)")
	app.Flags = append(app.Flags, &cli.DurationFlag{Name: "for", Value: 2 * time.Second, Usage: "how long at most"})
	app.Action = func(c *cli.Context) error {
		fmt.Println("sleeping")
		wait(c.Duration("for"))()
		fmt.Println("woke")
		return nil
	}
	return app
}

func newLogsApp() *cli.App {
	app := baseApp("logs", "write through the log package")
	app.Action = func(c *cli.Context) error {
		log.SetFlags(0)
		log.SetPrefix("[logs] ")
		log.Printf("standard logger")
		l := log.New(os.Stderr, "[logs] ", 0)
		l.Println("logger made at call time")
		fmt.Println("done")
		return nil
	}
	return app
}

// initLogger is bound to the process's stderr when the package initialises: in-process
// it keeps writing to the host's stderr, the one hazard the adapter cannot hide.
var initLogger = log.New(os.Stderr, "[init-logger] ", 0)

func newInitLoggerApp() *cli.App {
	app := baseApp("init-logger", "write through a logger bound at package init")
	app.Action = func(c *cli.Context) error {
		initLogger.Println("init-bound logger")
		fmt.Println("done")
		return nil
	}
	return app
}

func newGoflagApp() *cli.App { return baseApp("goflag", "parse flags with the flag package") }

// goflagMain defines flags on flag.CommandLine, as old Go code does, and parses them.
func goflagMain(ctx context.Context) {
	name := flag.String("name", "world", "who to greet")
	flag.Parse()
	fmt.Printf("hello %s %q\n", *name, flag.Args())
}

func newStdinApp() *cli.App {
	app := baseApp("stdin", "read stdin")
	app.Action = func(c *cli.Context) error {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return err
		}
		fmt.Printf("%d bytes: %s\n", len(b), strings.ToUpper(string(b)))
		return nil
	}
	return app
}

func newEnvApp() *cli.App {
	app := baseApp("env", "read an environment variable")
	app.Action = func(c *cli.Context) error {
		v, ok := os.LookupEnv("HAZARD_VALUE")
		fmt.Printf("HAZARD_VALUE=%q set=%v\n", v, ok)
		return nil
	}
	return app
}

func newChdirApp() *cli.App {
	app := baseApp("chdir", "print the working directory, then leave it")
	app.Action = func(c *cli.Context) error {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		fmt.Println("cwd", wd)
		if err := os.Chdir("/"); err != nil {
			return err
		}
		fmt.Println("moved")
		return nil
	}
	return app
}

func newSliceEnvApp() *cli.App {
	app := baseApp("slice-env", "a repeatable flag filled from the environment")
	app.Flags = append(app.Flags, &cli.StringSliceFlag{Name: "tag", EnvVars: []string{"HAZARD_TAGS"}, Usage: "tags"})
	app.Action = func(c *cli.Context) error {
		fmt.Printf("tags %q\n", c.StringSlice("tag"))
		return nil
	}
	return app
}

func newMeddleApp() *cli.App {
	app := baseApp("meddle", "change urfave/cli's, log's and flag's globals")
	app.Action = func(c *cli.Context) error {
		cli.AppHelpTemplate = "meddled"
		cli.CommandHelpTemplate = "meddled"
		cli.SubcommandHelpTemplate = "meddled"
		cli.MarkdownDocTemplate = "meddled"
		cli.FishCompletionTemplate = "meddled"
		cli.SuggestDidYouMeanTemplate = "meddled %q"
		cli.HelpFlag = &cli.BoolFlag{Name: "aide"}
		cli.VersionFlag = &cli.BoolFlag{Name: "ver"}
		cli.BashCompletionFlag = &cli.BoolFlag{Name: "complete"}
		cli.HelpPrinter = func(io.Writer, string, interface{}) {}
		cli.HelpPrinterCustom = func(io.Writer, string, interface{}, map[string]interface{}) {}
		cli.VersionPrinter = func(*cli.Context) {}
		cli.FlagStringer = func(cli.Flag) string { return "" }
		cli.FlagNamePrefixer = func([]string, string) string { return "" }
		cli.FlagEnvHinter = func([]string, string) string { return "" }
		cli.FlagFileHinter = func(string, string) string { return "" }
		cli.SuggestFlag = nil
		cli.SuggestCommand = nil
		cli.ErrWriter = io.Discard
		cli.OsExiter = func(int) {}
		log.SetOutput(io.Discard)
		log.SetFlags(log.Lmicroseconds)
		log.SetPrefix("meddled ")
		flag.Usage = func() {}
		flag.CommandLine = flag.NewFlagSet("meddled", flag.ContinueOnError)
		os.Args = []string{"meddled"}
		os.Stdout = os.Stderr
		fmt.Fprintln(os.Stderr, "[meddle] meddled")
		return nil
	}
	return app
}

// held holds the channel the hang and leak commands wait on; Release closes it.
var held = struct {
	sync.Mutex
	release chan struct{}
}{release: make(chan struct{})}

// Release ends every wait the hang and leak commands started in this process, so a test
// observes them without racing a timer and then leaves nothing behind.
func Release() {
	held.Lock()
	defer held.Unlock()
	close(held.release)
	held.release = make(chan struct{})
}

// wait returns after d or at the next Release, whichever comes first.
func wait(d time.Duration) func() {
	held.Lock()
	release := held.release
	held.Unlock()
	return func() {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-release:
		}
	}
}

// OnLeak, when set, runs in the leak command's main after it started its goroutine: a
// test makes the host do something there (end one of its own goroutines).
var OnLeak func()

func newLeakApp() *cli.App {
	app := baseApp("leak", "leave a goroutine running for a while (or until Release)")
	app.Flags = append(app.Flags, &cli.DurationFlag{Name: "for", Value: 200 * time.Millisecond, Usage: "how long at most"})
	app.Action = func(c *cli.Context) error {
		go wait(c.Duration("for"))()
		if OnLeak != nil {
			OnLeak()
		}
		fmt.Println("started")
		return nil
	}
	return app
}
