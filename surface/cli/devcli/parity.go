package devcli

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/surface/cli"
)

type parityOptions struct {
	Stdout, Stderr io.Writer
	Host           cli.Host
	// Binary is the program the subprocess lane runs (cli.SubprocessBinary).
	Binary string

	Tools           []string // the tools whose scripts run (none: every script)
	JSON            bool
	JUnit           string
	Dir             string
	Fixtures        string
	Results         string
	Update          bool
	Program         string
	Bin             string // the global --bin
	Warm            bool
	AllowInProgress bool
}

func newParityCmd(runF func(*parityOptions) error) *ucli.Command {
	opts := &parityOptions{}
	return &ucli.Command{
		Name:      "parity",
		Usage:     "run the parity scripts (every lane on copies of each script's workspace) and report differences",
		ArgsUsage: "[TOOL...]",
		Flags: []ucli.Flag{
			&ucli.BoolFlag{Name: "json", Usage: "print the results as JSON", Destination: &opts.JSON},
			&ucli.StringFlag{Name: "junit", Usage: "also write JUnit XML to `FILE`", Destination: &opts.JUnit},
			&ucli.StringFlag{Name: "dir", Value: filepath.Join("testdata", "script", "parity"), Usage: "directory of the parity scripts", Destination: &opts.Dir},
			&ucli.StringFlag{Name: "fixtures", Usage: "directory $FIXTURES points to (default: DIR/../../workspaces)", Destination: &opts.Fixtures},
			&ucli.StringFlag{Name: "results", Usage: "results `FILE` cmdbridge status reads (default: parity/last.json in the repository's state directory)", Destination: &opts.Results},
			&ucli.BoolFlag{Name: "update", Usage: "rewrite the scripts' goldens instead of failing on them", Destination: &opts.Update},
			&ucli.StringFlag{Name: "program", Usage: "`NAME` the subprocess lane runs commands that are not tree leaves under (default: the host's program; a tree leaf runs under its own program's name)", Destination: &opts.Program},
			&ucli.BoolFlag{Name: "warm", Usage: "add the warm lane: the native tool as a long-lived host runs it, one store and directory per script, so its warm state is reused across the script's calls", Destination: &opts.Warm},
			&ucli.BoolFlag{Name: "allow-in-progress", Usage: "exit 0 when the only failures are tools in progress (a scaffolded handler still answering NOT_IMPLEMENTED) whose route is not native", Destination: &opts.AllowInProgress},
		},
		Action: func(c *ucli.Context) error {
			opts.Stdout, opts.Stderr, opts.Host = c.App.Writer, c.App.ErrWriter, cli.HostOf(c)
			opts.Tools, opts.Bin, opts.Binary = c.Args().Slice(), c.String("bin"), cli.SubprocessBinary(c)
			if opts.Program == "" {
				opts.Program = opts.Host.Program
			}
			if runF != nil {
				return runF(opts)
			}
			return runParity(opts)
		},
	}
}

func runParity(opts *parityOptions) error {
	host, stdout, stderr := opts.Host, opts.Stdout, opts.Stderr
	suite, err := paritySuite(opts)
	if err != nil {
		return err
	}
	results := opts.Results
	if results == "" {
		if results, err = cli.ResultsFile("."); err != nil {
			return fmt.Errorf("parity: %w", err)
		}
	}
	// A command that ends its process on an in-process lane would end this run with no
	// word: the run happens in a child, and this process reports what it left unfinished.
	if host.SuperviseParity && os.Getenv(parity.ChildEnv) == "" {
		code, err := parity.Supervise(os.Args[1:], results, stdout, stderr)
		if err != nil {
			return fmt.Errorf("parity: %w", err)
		}
		if code != cli.ExitOK {
			return ucli.Exit("", code)
		}
		return nil
	}
	// Results merge per tool: read what earlier runs left, so a run of some tools
	// changes only theirs.
	prev, err := parity.ReadResults(results)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		prev = parity.Results{}
	case err != nil:
		return fmt.Errorf("parity: %w (it is not overwritten; move it away to start afresh)", err)
	}
	staleCheck(&suite, stderr, host)
	binDir, cleanup, err := programLinks(opts, suite.Programs())
	if err != nil {
		return fmt.Errorf("parity: %w", err)
	}
	defer cleanup()
	suite.BinDir = binDir
	res, err := runSuite(suite, opts, prev, results)
	if err != nil {
		return err
	}
	// A run of the whole suite replaces the file (a tool whose script is gone keeps
	// no result); a run of named tools changes only theirs.
	if err := parity.Merge(prev, res, suite.Files == nil).Write(results); err != nil {
		return fmt.Errorf("parity: %w", err)
	}
	if f := opts.JUnit; f != "" {
		if err := writeJUnit(f, res); err != nil {
			return fmt.Errorf("parity: junit: %w", err)
		}
	}
	if opts.JSON {
		if err := printJSON(stdout, res); err != nil {
			return err
		}
	} else {
		printSummary(stdout, stderr, res)
	}
	return parityExit(stderr, res, host.Native.Routes(), opts.AllowInProgress)
}

// paritySuite is the suite the options ask for: the scripts of --dir, or of the named
// tools only.
func paritySuite(opts *parityOptions) (parity.Suite, error) {
	host, dir := opts.Host, opts.Dir
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return parity.Suite{}, usageError("parity: no script directory %s (use --dir)", dir)
	}
	suite := parity.Suite{
		Dir: dir, Fixtures: opts.Fixtures, Update: opts.Update,
		Commands: host.Commands, Native: host.Native, Runtime: host.Runtime, Program: opts.Program, Warm: opts.Warm,
		Env: host.ScriptEnv, PassEnv: host.ScriptPassEnv,
	}
	for _, name := range opts.Tools {
		script := filepath.Join(dir, parity.ScriptName(suite.Resolve(name))+".txtar")
		if _, err := os.Stat(script); err != nil {
			return parity.Suite{}, usageError("parity: no parity script for %s (%s)", name, script)
		}
		suite.Files = append(suite.Files, script)
	}
	return suite, nil
}

// staleCheck makes the suite report a tool whose native source is newer than this
// binary, when the binary can be told.
func staleCheck(suite *parity.Suite, stderr io.Writer, host cli.Host) {
	prog, err := parity.CurrentProgram()
	if err != nil {
		fmt.Fprintf(stderr, "parity: stale-binary check off: %v\n", err)
		return
	}
	check, note := parity.StaleCheck(prog, suite.Dir, func(name string) bool {
		_, ok := host.Native.Lookup(name)
		return ok
	})
	if note != "" {
		fmt.Fprintln(stderr, note)
	}
	suite.Check = check
}

// runSuite runs the suite, rewriting the results file before and after each tool: a
// run that dies while a script runs leaves that tool an error, never an older pass.
func runSuite(suite parity.Suite, opts *parityOptions, prev parity.Results, results string) (parity.Results, error) {
	var printer func(parity.ToolResult, bool)
	if !opts.JSON {
		printer = progressPrinter(opts.Stdout)
	}
	cur, started, writeErr := prev, time.Now(), error(nil)
	record := func(r parity.ToolResult) {
		cur = parity.Merge(cur, parity.Results{RunAt: started, Tools: []parity.ToolResult{r}}, false)
		if err := cur.Write(results); err != nil && writeErr == nil {
			writeErr = err
		}
	}
	progress := func(r parity.ToolResult, done bool) {
		if !done {
			r.Status, r.Diff = parity.StatusError, parity.Unfinished
		}
		record(r)
		if printer != nil {
			printer(r, done)
		}
	}
	// An in-process lane that ends the process (a command's os.Exit) leaves its tool an
	// error that names the call and the lane.
	suite.OnLane = func(_, tool string, input json.RawMessage, lane string, inProcess bool) {
		i := slices.IndexFunc(cur.Tools, func(t parity.ToolResult) bool { return t.Tool == tool })
		if !inProcess || i < 0 {
			return
		}
		r := cur.Tools[i]
		r.Diff = parity.DiedInLane(tool, input, lane)
		record(r)
	}
	res, err := parity.RunSuite(suite, progress)
	if errors.Is(err, parity.ErrNoScripts) {
		return res, usageError("%v", err)
	}
	if err != nil {
		return res, fmt.Errorf("parity: %w", err)
	}
	if writeErr != nil {
		return res, fmt.Errorf("parity: %w", writeErr)
	}
	return res, nil
}

// parityExit is the exit status of a parity run: 0 when every tool passed; 1 on any
// failure or error; tools in progress (StatusInProgress) fail the run too unless
// allowIn is set and none of them is routed native (served by a handler that is not
// written). Either way a line on stderr names them.
func parityExit(stderr io.Writer, res parity.Results, routes map[string]string, allowIn bool) error {
	if res.OK() {
		return nil
	}
	var broken bool
	var inProgress, routedNative []string
	for _, t := range res.Tools {
		switch t.Status {
		case parity.StatusPass:
		case parity.StatusInProgress:
			inProgress = append(inProgress, t.Tool)
			if routes[t.Tool] == "native" {
				routedNative = append(routedNative, t.Tool)
			}
		default:
			broken = true
		}
	}
	if len(inProgress) > 0 {
		fmt.Fprintf(stderr, "parity: IN PROGRESS (native handler answers NOT_IMPLEMENTED; write it, rebuild, run parity again): %s\n",
			strings.Join(inProgress, ", "))
		switch {
		case len(routedNative) > 0:
			fmt.Fprintf(stderr, "parity: routed native while in progress, so callers get NOT_IMPLEMENTED: %s (route them adapter)\n",
				strings.Join(routedNative, ", "))
		case allowIn && !broken:
			fmt.Fprintln(stderr, "parity: exit 0: only tools in progress differ, allowed by --allow-in-progress")
			return nil
		case !allowIn:
			fmt.Fprintln(stderr, "parity: exit 1; --allow-in-progress accepts tools in progress (routed adapter or shadow)")
		}
	}
	return cli.ErrSilent
}

// programLinks makes a temporary directory holding, for each program the subprocess
// lane runs, a symlink of that name to the binary: --bin when given, else this
// executable, which dispatches as the legacy CLI under the program's name. Scripts find
// the programs on PATH, so each runs under its own name, as its users run it.
func programLinks(opts *parityOptions, programs []string) (string, func(), error) {
	target, prefix := opts.Bin, []string(nil)
	if target == "" {
		// The program the subprocess lane runs, when there is one to run; else this
		// executable, which dispatches as the legacy CLI under the program's name.
		if bin := opts.Binary; bin != "" {
			if p, err := exec.LookPath(bin); err == nil {
				target, prefix = p, opts.Host.Prefix
			}
		}
	}
	if target == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", nil, fmt.Errorf("locate cmdbridge: %w", err)
		}
		target = exe
	}
	target, err := filepath.Abs(target)
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "cmdbridge-parity-bin-")
	if err != nil {
		return "", nil, err
	}
	for _, p := range programs {
		if p != filepath.Base(p) || p == "." || p == ".." {
			os.RemoveAll(dir)
			return "", nil, fmt.Errorf("program name %q is not a file name", p)
		}
		if err := linkProgram(filepath.Join(dir, p), target, prefix); err != nil {
			os.RemoveAll(dir)
			return "", nil, err
		}
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// linkProgram makes path run target: a symlink, or, when target needs argv words before
// the program's own (a standalone host re-running the app), a shell script that adds them.
func linkProgram(path, target string, prefix []string) error {
	if len(prefix) == 0 {
		return os.Symlink(target, path)
	}
	script := "#!/bin/sh\nexec " + shellQuote(target)
	for _, w := range prefix {
		script += " " + shellQuote(w)
	}
	return os.WriteFile(path, []byte(script+" \"$@\"\n"), 0o755)
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// isTerminal reports whether w is a terminal (then progress is one line
// rewritten in place).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

func progressPrinter(w io.Writer) func(parity.ToolResult, bool) {
	tty := isTerminal(w)
	n := 0
	return func(r parity.ToolResult, done bool) {
		switch {
		case tty && !done:
			n++
			fmt.Fprintf(w, "\r\033[K[%d] %s …", n, r.Tool)
		case tty:
			fmt.Fprintf(w, "\r\033[K[%d] %s %s (%dms)", n, r.Tool, r.Status, r.DurationMS)
			if r.Status != parity.StatusPass {
				fmt.Fprintln(w) // keep failures on screen
			}
		case done:
			fmt.Fprintf(w, "%-5s %s %s (%dms)\n", strings.ToUpper(r.Status), r.Tool, r.LaneText(), r.DurationMS)
		}
	}
}

func printSummary(stdout, stderr io.Writer, res parity.Results) {
	if isTerminal(stdout) {
		fmt.Fprint(stdout, "\r\033[K")
	}
	counts := map[string]int{}
	for _, t := range res.Tools {
		counts[t.Status]++
		if t.Status != parity.StatusPass {
			fmt.Fprintf(stderr, "--- %s %s (%s)\n%s\n", strings.ToUpper(t.Status), t.Tool, t.Script, t.Diff)
		}
	}
	fmt.Fprintf(stdout, "parity: %d passed, %d failed, %d errors, %d in progress\n",
		counts[parity.StatusPass], counts[parity.StatusFail], counts[parity.StatusError], counts[parity.StatusInProgress])
}

type junitSuites struct {
	XMLName xml.Name   `xml:"testsuites"`
	Suites  []junitSet `xml:"testsuite"`
}

type junitSet struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func writeJUnit(path string, res parity.Results) error {
	set := junitSet{Name: "parity", Tests: len(res.Tools)}
	var total int64
	for _, t := range res.Tools {
		total += t.DurationMS
		tc := junitCase{Name: t.Tool, Classname: "parity." + strings.ReplaceAll(t.Tool, ":", "_"),
			Time: fmt.Sprintf("%.3f", float64(t.DurationMS)/1000)}
		switch t.Status {
		case parity.StatusFail:
			set.Failures++
			tc.Failure = &junitProblem{Message: "lanes differ: " + strings.Join(t.Lanes, ", "), Text: t.Diff}
		case parity.StatusInProgress:
			set.Failures++
			tc.Failure = &junitProblem{Message: "in progress: the native handler answers NOT_IMPLEMENTED", Text: t.Diff}
		case parity.StatusError:
			set.Errors++
			tc.Error = &junitProblem{Message: "parity could not run", Text: t.Diff}
		}
		set.Cases = append(set.Cases, tc)
	}
	set.Time = fmt.Sprintf("%.3f", float64(total)/1000)
	b, err := xml.MarshalIndent(junitSuites{Suites: []junitSet{set}}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644)
}
