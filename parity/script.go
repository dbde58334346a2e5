package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/parity/compare"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// ExitFileVar names the file where a script's program (the test binary's main), `bridge`
// and `parity` record the last exit code, for `exitcode N`.
const ExitFileVar = "CMDBRIDGE_TEST_EXIT_FILE"

// NowVar names the scripts' pinned clock (RFC 3339; DefaultNow unless the suite's Env
// sets it): `gitinit` dates its commit with it, so commit ids are the same on every run.
const NowVar = "CMDBRIDGE_SCRIPT_NOW"

// DefaultNow is the scripts' pinned clock when the suite sets none.
const DefaultNow = "2026-03-01T10:00:00.000Z"

// passEnv are the script variables handed to every lane of a call, as a process would
// inherit them, whatever the suite: git isolated from the machine's configuration, the
// script's HOME and user, pinned commit dates. Suite.PassEnv and the names of Suite.Env
// add to them.
var passEnv = []string{
	"GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "HOME", "USER", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", NowVar,
}

// Suite configures the parity scripts and their commands. The same Suite
// drives a program's parity tests (the corpus's in `go test ./integration`) and
// `cmdbridge parity`.
type Suite struct {
	// Dir holds the *.txtar scripts.
	Dir string
	// Files restricts the run to these scripts (nil: every script in Dir).
	Files []string
	// Fixtures is $FIXTURES, the shared workspaces (default: Dir/../../workspaces).
	Fixtures string
	// Update rewrites goldens: `cmp` targets (testscript's own update) and
	// `cmptree` listings.
	Update bool
	// Commands, Native and Runtime are passed to Run (see Config).
	Commands *legacy.Registry
	Native   *native.Registry
	Runtime  func(lookup func(string) (string, bool)) (now func() time.Time, ids tool.IDSource)
	// Binary, when set, is the executable the subprocess lane runs for every
	// command. When empty, each call's program is looked up on the script's PATH
	// by name: a tree leaf's legacy.Command.Program, else Program.
	Binary string
	// Program is the name the subprocess lane runs commands of their own (not
	// tree leaves) under, such as a multi-call binary ("": those commands have no
	// subprocess lane unless Binary is set).
	Program string
	// BinDir is prepended to the scripts' PATH (where the programs live).
	BinDir string
	// Env are extra variables set in every script, such as the program's own pinned
	// clock or seed; every lane of a call gets them (at the value the script holds
	// then), as a process would inherit them.
	Env map[string]string
	// PassEnv names more script variables every lane of a call gets when the script
	// sets them (`env DATABASE_URL=file:db.txt` before `parity status '{}'`): a call
	// gets no other variable of the script.
	PassEnv []string
	// Warm adds the warm lane (LaneWarm) to every parity call of a tool with a native
	// implementation: the native implementation run as a long-lived host would, with one
	// Warm (store and directory) per script shared by all its parity and native
	// commands, so the native tools' warm state must follow every change the script
	// makes (its own edits, the legacy lanes' writes, each sync). The native lane still
	// runs cold on its own copy, so one run compares both with the legacy lanes.
	Warm bool
	// Observe, when set, is called after each `parity` command with the
	// script's name and the report or the error that stopped it.
	Observe func(script string, rep *Report, err error)
	// Check, when set, is asked before RunSuite runs a tool's script: a non-empty
	// answer says why the run cannot be trusted (e.g. StaleCheck: the running binary
	// lacks the native implementation the source has), and the tool's result is
	// StatusError with that message instead of running the script.
	Check func(tool string) string
	// RunUnanalysed is passed to Run (see Config.RunUnanalysed): the host's own opt-in to run
	// commands nobody analysed in-process, as when serving.
	RunUnanalysed bool
	// OnLane, when set, is called as each lane of a `parity` call starts, with the
	// script's name, the tool and input, the lane and whether it runs in this process
	// (see Config.OnLane).
	OnLane func(script, tool string, input json.RawMessage, lane string, inProcess bool)
}

// scripts returns the script files the suite runs.
func (s Suite) scripts() ([]string, error) {
	if s.Files != nil {
		return s.Files, nil
	}
	files, err := filepath.Glob(filepath.Join(s.Dir, "*.txtar"))
	if err != nil {
		return nil, fmt.Errorf("parity scripts %s: %w", s.Dir, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w in %s", ErrNoScripts, s.Dir)
	}
	return files, nil
}

// Params returns the testscript parameters of the suite: a pinned environment
// (HOME=$WORK, USER, git configuration isolated, NowVar, then the suite's Env),
// $FIXTURES, and the commands parity, native, bridge, cmptree, exitcode and gitinit.
func (s Suite) Params() (testscript.Params, error) {
	files, err := s.scripts()
	if err != nil {
		return testscript.Params{}, err
	}
	byName := map[string]string{}
	for _, f := range files {
		byName[strings.TrimSuffix(filepath.Base(f), ".txtar")] = f
	}
	fixtures := s.Fixtures
	if fixtures == "" {
		fixtures = filepath.Join(s.Dir, "..", "..", "workspaces")
	}
	fixtures, err = filepath.Abs(fixtures)
	if err != nil {
		return testscript.Params{}, fmt.Errorf("fixtures: %w", err)
	}
	c := &scriptCmds{suite: s, files: byName}
	return testscript.Params{
		Files:               files,
		UpdateScripts:       s.Update,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("FIXTURES", fixtures)
			env.Setenv(NowVar, DefaultNow)
			env.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("USER", "tester")
			env.Setenv(ExitFileVar, filepath.Join(env.WorkDir, ".tmp", "exitcode"))
			if s.BinDir != "" {
				env.Setenv("PATH", s.BinDir+string(filepath.ListSeparator)+env.Getenv("PATH"))
			}
			for k, v := range s.Env {
				env.Setenv(k, v)
			}
			kept := &Kept{}
			env.Values[keptKey{}] = kept
			env.Defer(func() { _ = kept.Close() })
			if s.Warm {
				return setupWarm(env)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"parity":   c.parity,
			"native":   c.native,
			"bridge":   c.bridge,
			"cmptree":  c.cmptree,
			"exitcode": Exitcode,
			"gitinit":  Gitinit,
		},
	}, nil
}

type scriptCmds struct {
	suite Suite
	files map[string]string // script name → file, for cmptree -update
	mu    sync.Mutex        // serialises script-file rewrites
}

func (c *scriptCmds) callEnv(ts *testscript.TestScript) map[string]string {
	env := map[string]string{}
	pass := func(k string) {
		if v := ts.Getenv(k); v != "" {
			env[k] = v
		}
	}
	for _, k := range passEnv {
		pass(k)
	}
	for _, k := range c.suite.PassEnv {
		pass(k)
	}
	for k := range c.suite.Env {
		pass(k)
	}
	return env
}

func recordExit(ts *testscript.TestScript, code int) { recordExitText(ts, strconv.Itoa(code)) }

// recordExitText records what `exitcode` reads: a code, or "none" when no process ran.
func recordExitText(ts *testscript.TestScript, code string) {
	if f := ts.Getenv(ExitFileVar); f != "" {
		ts.Check(os.MkdirAll(filepath.Dir(f), 0o755))
		ts.Check(os.WriteFile(f, []byte(code), 0o644))
	}
}

// lookPath finds name on the script's PATH.
func lookPath(ts *testscript.TestScript, name string) string {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// parity [-C dir] [-lanes a,b] TOOL [JSON]: run the call on every lane on
// copies of the directory, print the common output, fail with the diff.
// With `!` the lanes must differ.
func (c *scriptCmds) parity(ts *testscript.TestScript, neg bool, args []string) {
	dir := "."
	var lanes []string
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if len(args) < 2 {
			ts.Fatalf("usage: parity [-C dir] [-lanes a,b] TOOL [JSON]")
		}
		switch args[0] {
		case "-C":
			dir = args[1]
		case "-lanes":
			lanes = strings.Split(args[1], ",")
		default:
			ts.Fatalf("parity: unknown option %s", args[0])
		}
		args = args[2:]
	}
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: parity [-C dir] [-lanes a,b] TOOL [JSON]")
	}
	input := json.RawMessage("{}")
	if len(args) == 2 {
		input = json.RawMessage(args[1])
	}
	name := c.suite.Resolve(args[0])
	bin := c.suite.Binary
	if prog := c.suite.program(name); bin == "" && prog != "" {
		bin = lookPath(ts, prog)
	}
	var onLane func(string, bool)
	if c.suite.OnLane != nil {
		onLane = func(lane string, inProcess bool) { c.suite.OnLane(ts.Name(), name, input, lane, inProcess) }
	}
	var skip func(string) bool
	if ts.MkAbs(dir) == ts.MkAbs(".") {
		skip = isGoldens // the script's own files, not the workspace's
	}
	rep, err := Run(context.Background(), name, input, Config{
		Workspace: ts.MkAbs(dir), Lanes: lanes, Skip: skip, Commands: c.suite.Commands, Native: c.suite.Native,
		Binary: bin, Env: c.callEnv(ts), Runtime: c.suite.Runtime, Scratch: os.TempDir(), Warm: warmOf(ts), Keep: keptOf(ts),
		RunUnanalysed: c.suite.RunUnanalysed, OnLane: onLane,
	})
	if c.suite.Observe != nil {
		c.suite.Observe(ts.Name(), rep, err)
	}
	if err != nil {
		ts.Fatalf("%v", err)
	}
	_, _ = ts.Stdout().Write(rep.Common)
	// A call the schema refused ran no process: `exitcode N` after it fails, instead of
	// reading the code an earlier call left.
	exit := "none"
	if s := rep.Results[0].Streams; s != nil {
		exit = strconv.Itoa(s.ExitCode)
	}
	recordExitText(ts, exit)
	switch {
	case !rep.OK() && !neg:
		ts.Fatalf("%s", rep.String())
	case rep.OK() && neg:
		ts.Fatalf("parity %s: lanes %s agree, want a difference", name, strings.Join(rep.Lanes, ", "))
	case !rep.OK() || rep.routed():
		ts.Logf("%s", rep.String())
	}
}

// isGoldens reports whether a path of a script's work directory is its goldens, want/
// (gitinit leaves it out of the repository): no call reads them, so no lane gets a copy.
func isGoldens(rel string) bool { return rel == "want" }

// program is the name the subprocess lane runs the command under: a tree
// leaf's own program, else the suite's Program.
func (s Suite) program(name string) string {
	if s.Commands != nil {
		if c, ok := s.Commands.Lookup(name); ok && c.Program != "" {
			return c.Program
		}
	}
	return s.Program
}

// Programs returns every program name the suite's subprocess lane may run:
// Program and the tree leaves' programs, sorted, without duplicates. A host
// puts an executable of each name in BinDir.
func (s Suite) Programs() []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	add(s.Program)
	if s.Commands != nil {
		for _, c := range s.Commands.All() {
			add(c.Program)
		}
	}
	sort.Strings(out)
	return out
}

// native TOOL [JSON]: run the native implementation in the current
// directory (it writes there) and print its output as JSON, with the
// directory as $WORK; in a Warm suite with the script's store, as the warm
// lane runs. With `!` the call must fail.
func (c *scriptCmds) native(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: native TOOL [JSON]")
	}
	if c.suite.Native == nil {
		ts.Fatalf("native: no native registry configured")
	}
	t, ok := c.suite.Native.Lookup(c.suite.Resolve(args[0]))
	if !ok {
		ts.Fatalf("native: no native implementation of %s", args[0])
	}
	input := json.RawMessage("{}")
	if len(args) == 2 {
		input = json.RawMessage(args[1])
	}
	dir := ts.MkAbs(".")
	out := runNative(context.Background(), t, input, dir, c.callEnv(ts), warmOf(ts).store(), Config{Runtime: c.suite.Runtime})
	out.Metadata = nil
	norm := NewNormalizer(dir, ts.Getenv("WORK"))
	v, err := norm.JSON(out)
	ts.Check(err)
	b, err := json.MarshalIndent(v, "", "  ")
	ts.Check(err)
	_, _ = ts.Stdout().Write(append(b, '\n'))
	if out.Success == neg {
		ts.Fatalf("native %s: success=%v", args[0], out.Success)
	}
}

// bridge COMMAND args...: run the legacy command in-process through
// adapter.Run, like `exec delivery` but on the adapter lane.
func (c *scriptCmds) bridge(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: bridge COMMAND [args...]")
	}
	reg := c.suite.Commands
	if reg == nil {
		reg = legacy.NewRegistry()
	}
	cmd, ok := reg.Lookup(args[0])
	if !ok {
		ts.Fatalf("bridge: unknown command %q", args[0])
	}
	res := adapter.Run(context.Background(), cmd, args[1:], adapter.Config{Dir: ts.MkAbs("."), Env: c.callEnv(ts)})
	_, _ = ts.Stdout().Write(res.Stdout)
	_, _ = ts.Stderr().Write(res.Stderr)
	recordExit(ts, res.ExitCode)
	if (res.ExitCode != 0) != neg {
		ts.Fatalf("bridge %s: exit code %d", args[0], res.ExitCode)
	}
}

// Exitcode is the testscript command `exitcode N`: it asserts the exit code last
// recorded in $CMDBRIDGE_TEST_EXIT_FILE (ExitFileVar) by the program, bridge or parity. The corpus
// harness (commands/all) uses it too.
func Exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: exitcode N")
	}
	got, err := os.ReadFile(ts.Getenv(ExitFileVar))
	ts.Check(err)
	if string(got) != args[0] {
		ts.Fatalf("exit code %s, want %s", got, args[0])
	}
}

// Gitinit is the testscript command `gitinit [dir]`, shared with the corpus
// harness: it makes the current directory (or the given one) a git repository
// on branch main with one commit of everything except want/ and .tmp/, at
// the pinned date, so SHAs are the same on every run and every lane. The
// repository's own configuration turns git's automatic maintenance off: on a
// script's few files it never has anything to do, and each commit would start a
// `git maintenance run --auto` process to find that out (a quarter of the git
// processes of the parity suite's commits).
func Gitinit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: gitinit [dir]")
	}
	dir := ts.MkAbs(".")
	if len(args) == 1 {
		dir = ts.MkAbs(args[0])
	}
	date := ts.Getenv(NowVar)
	if date == "" {
		date = DefaultNow
	}
	ts.Check(os.WriteFile(filepath.Join(dir, ".tmp-exclude"), []byte(".tmp/\n.tmp-exclude\nwant/\n"), 0o644))
	for _, argv := range [][]string{
		// No template: the sample hooks, description and info/exclude it would copy are
		// files every lane of every call would copy again, and nothing reads them.
		{"init", "-q", "-b", "main", "--template="},
		nil, // the repository's configuration, below
		{"add", "-A"},
		{"-c", "user.name=Tester", "-c", "user.email=tester@example.com", "-c", "commit.gpgsign=false",
			"commit", "-q", "--allow-empty", "-m", "initial"},
	} {
		if argv == nil {
			// What `git config --local` would add for each key, in one write.
			f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_WRONLY|os.O_APPEND, 0)
			ts.Check(err)
			_, err = f.WriteString("[core]\n\texcludesFile = .tmp-exclude\n[maintenance]\n\tauto = false\n")
			ts.Check(errors.Join(err, f.Close()))
			continue
		}
		cmd := exec.Command("git", argv...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"HOME="+ts.Getenv("HOME"), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			ts.Fatalf("git %s: %v: %s", strings.Join(argv, " "), err, stderr.String())
		}
	}
}

// cmptree DIR GOLDEN: compare DIR with a golden listing (see Listing). With
// -update, a differing golden that is a file of the script is rewritten.
func (c *scriptCmds) cmptree(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: cmptree DIR GOLDEN")
	}
	got, err := Listing(ts.MkAbs(args[0]))
	ts.Check(err)
	goldenPath := ts.MkAbs(args[1])
	want, err := os.ReadFile(goldenPath)
	if err != nil && !(c.suite.Update && os.IsNotExist(err)) {
		ts.Check(err)
	}
	if string(want) == string(got) {
		return
	}
	if c.suite.Update {
		ts.Check(os.WriteFile(goldenPath, got, 0o644))
		rel, err := filepath.Rel(ts.Getenv("WORK"), goldenPath)
		ts.Check(err)
		script := c.files[ts.Name()]
		// After testscript's own update of cmp goldens, which rewrites the
		// whole script from its parsed copy.
		ts.Defer(func() { c.patchScript(ts, script, filepath.ToSlash(rel), got) })
		return
	}
	ts.Logf("%s", compare.Unified(args[1], want, args[0], got))
	ts.Fatalf("%s and %s differ", args[0], args[1])
}

func (c *scriptCmds) patchScript(ts *testscript.TestScript, script, name string, content []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	data, err := os.ReadFile(script)
	if err != nil {
		ts.Logf("cmptree -update: %v", err)
		return
	}
	a := txtar.Parse(data)
	found := false
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data, found = content, true
		}
	}
	if !found {
		a.Files = append(a.Files, txtar.File{Name: name, Data: content})
	}
	if err := os.WriteFile(script, txtar.Format(a), 0o644); err != nil {
		ts.Logf("cmptree -update: %v", err)
	}
}

// Listing describes dir as cmptree compares it: one line per entry, sorted
// by path — "d <mode> <path>/" for directories, "l <path> -> <target>" for
// symlinks, "f <mode> <size> <sha256 first 16 hex> <path>" for files. Raw
// .git and .cmdbridge are left out everywhere, and at the top level the
// script's own scaffolding: .tmp/, want/ and .tmp-exclude.
func Listing(dir string) ([]byte, error) {
	t, err := Snapshot(dir)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, p := range t.Paths() {
		if strings.HasPrefix(p, ".git:") || p == ".tmp" || p == "want" || p == ".tmp-exclude" ||
			strings.HasPrefix(p, ".tmp/") || strings.HasPrefix(p, "want/") {
			continue
		}
		e := t[p]
		switch {
		case e.Mode.IsDir():
			lines = append(lines, fmt.Sprintf("d %v %s/", e.Mode.Perm(), p))
		case e.Mode&fs.ModeSymlink != 0:
			lines = append(lines, fmt.Sprintf("l %s -> %s", p, e.Link))
		default:
			lines = append(lines, fmt.Sprintf("f %v %d %.16s %s", e.Mode.Perm(), e.Size, e.SHA256, p))
		}
	}
	return []byte(strings.Join(lines, "\n") + "\n"), nil
}

// Resolve maps any spelling of a tool name (wu_status, WuStatus…) to the
// canonical name among the suite's commands and native tools; an unknown
// spelling is returned unchanged, for Run to report.
func (s Suite) Resolve(spelling string) string {
	names := s.ToolNames()
	set, err := tool.NewNames(names)
	if err != nil {
		return spelling
	}
	if n, ok := set.Resolve(spelling); ok {
		return n
	}
	return spelling
}

// ToolNames returns the canonical names of every command and native tool
// the suite knows, sorted and without duplicates.
func (s Suite) ToolNames() []string {
	reg := s.Commands
	if reg == nil {
		reg = legacy.NewRegistry()
	}
	seen := map[string]bool{}
	var out []string
	for _, c := range reg.All() {
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c.Name)
		}
	}
	if s.Native != nil {
		for _, t := range s.Native.All() {
			if !seen[t.Spec.Name] {
				seen[t.Spec.Name] = true
				out = append(out, t.Spec.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// ScriptName is the script file name (without .txtar) of a tool: tool.Stem, the name
// with ':' and '-' as '_' (wu:status → wu_status), as every piece of a tool is named.
func ScriptName(toolName string) string { return tool.Stem(toolName) }
