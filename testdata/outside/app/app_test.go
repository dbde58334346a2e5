package app_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"example.com/gizmo/app"
	"github.com/urfave/cli/v2"
)

// The test binary doubles as gizmo: with GIZMO_TEST_MAIN=1 it runs the same main as
// cmd/gizmo (without the cmdbridge line), so exit codes, os.Exit hazards and stdin
// behave exactly as in the real program.
func TestMain(m *testing.M) {
	if os.Getenv("GIZMO_TEST_MAIN") == "1" {
		if err := app.New().Run(append([]string{"gizmo"}, os.Args[1:]...)); err != nil {
			fmt.Fprintln(os.Stderr, "gizmo:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type result struct {
	stdout, stderr string
	code           int
}

// gizmo runs the program with the data directory dir and the given stdin.
func gizmo(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIZMO_TEST_MAIN=1", "GIZMO_DATA_DIR="+dir)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

func ok(t *testing.T, r result, stdout string) {
	t.Helper()
	if r.code != 0 || r.stdout != stdout || r.stderr != "" {
		t.Fatalf("got exit %d stdout %q stderr %q; want exit 0 stdout %q", r.code, r.stdout, r.stderr, stdout)
	}
}

func TestNewIsFresh(t *testing.T) {
	a, b := app.New(), app.New()
	if a == b || a.Commands[0] == b.Commands[0] || a.Flags[0] == b.Flags[0] {
		t.Fatal("New must build a fresh app every call")
	}
	leaves := 0
	var walk func(cmds []*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			if len(c.Subcommands) == 0 {
				leaves++
			}
			walk(c.Subcommands)
		}
	}
	walk(a.Commands)
	if leaves != 8 {
		t.Fatalf("%d leaf commands, want 8", leaves)
	}
}

func TestVersion(t *testing.T) {
	ok(t, gizmo(t, t.TempDir(), "", "version"), "gizmo 1.4.2\n")
}

func TestDataDirMissing(t *testing.T) {
	dir := t.TempDir()
	r := gizmo(t, dir, "", "--data-dir", filepath.Join(dir, "nope"), "version")
	if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "gizmo: data dir: ") {
		t.Fatalf("got %+v", r)
	}
}

func TestNotesLifecycle(t *testing.T) {
	dir := t.TempDir()
	ok(t, gizmo(t, dir, "", "notes", "list"), "")
	ok(t, gizmo(t, dir, "", "notes", "add", "--body", "milk\neggs", "--tag", "home", "--tag", "food", "--label", "prio=high", "shopping"), "added shopping\n")
	ok(t, gizmo(t, dir, "from stdin\n", "notes", "add", "--body", "-", "diary"), "added diary\n")
	ok(t, gizmo(t, dir, "", "notes", "list"), "diary\nshopping\n")

	r := gizmo(t, dir, "", "notes", "show", "shopping")
	ok(t, r, r.stdout)
	var n map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &n); err != nil {
		t.Fatalf("show printed %q: %v", r.stdout, err)
	}
	want := map[string]any{"title": "shopping", "notebook": "default", "body": "milk\neggs", "tags": []any{"home", "food", "prio=high"}}
	if fmt.Sprint(n) != fmt.Sprint(want) {
		t.Fatalf("show: %v, want %v", n, want)
	}
	r = gizmo(t, dir, "", "notes", "show", "diary")
	if !strings.Contains(r.stdout, `"body": "from stdin\n"`) || !strings.Contains(r.stdout, `"tags": []`) {
		t.Fatalf("show diary: %q", r.stdout)
	}

	out := filepath.Join(dir, "all.txt")
	ok(t, gizmo(t, dir, "", "notes", "export", "--output", out), "exported 2 notes to "+out+"\n")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "== diary ==\nfrom stdin\n\n== shopping ==\ntags: home, food, prio=high\nmilk\neggs\n"; string(b) != want {
		t.Fatalf("export wrote %q, want %q", b, want)
	}

	ok(t, gizmo(t, dir, "", "notes", "rm", "diary"), "removed diary\n")
	ok(t, gizmo(t, dir, "", "notes", "list"), "shopping\n")
	ok(t, gizmo(t, dir, "", "notes", "rm", "--force", "diary"), "")
}

func TestNotebookIsInherited(t *testing.T) {
	dir := t.TempDir()
	ok(t, gizmo(t, dir, "", "notes", "--notebook", "work", "add", "--body", "x", "todo"), "added todo\n")
	if _, err := os.Stat(filepath.Join(dir, "work", "todo.txt")); err != nil {
		t.Fatal(err)
	}
	ok(t, gizmo(t, dir, "", "notes", "list"), "")
	ok(t, gizmo(t, dir, "", "notes", "-n", "work", "list"), "todo\n")
	r := gizmo(t, dir, "", "notes", "--notebook", "work", "show", "todo")
	if !strings.Contains(r.stdout, `"notebook": "work"`) {
		t.Fatalf("show: %q", r.stdout)
	}
}

func TestMissingNote(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"notes", "show", "ghost"}, {"notes", "rm", "ghost"}} {
		r := gizmo(t, dir, "", args...)
		if r.code != 4 || r.stdout != "" || r.stderr != "no note ghost\n" {
			t.Fatalf("%v: got %+v", args, r)
		}
	}
}

// notes add without a TITLE calls cli.ShowCommandHelpAndExit: the process exits 3.
func TestAddWithoutTitleExits(t *testing.T) {
	r := gizmo(t, t.TempDir(), "", "notes", "add")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "NAME:\n   gizmo notes add - add a note\n") || r.stderr != "" {
		t.Fatalf("got %+v, want the help of notes add and exit 3", r)
	}
}

func TestText(t *testing.T) {
	dir := t.TempDir()
	ok(t, gizmo(t, dir, "", "text", "upper", "hello", "big", "world"), "HELLO BIG WORLD\n")
	if r := gizmo(t, dir, "", "text", "upper"); r.code != 1 || r.stderr != "gizmo: upper: no words\n" {
		t.Fatalf("upper without words: %+v", r)
	}

	input := "one two three\nfour a\n"
	ok(t, gizmo(t, dir, input, "text", "count"), "2 5 21\n")
	ok(t, gizmo(t, dir, input, "text", "count", "-"), "2 5 21\n")
	ok(t, gizmo(t, dir, input, "text", "count", "--min-length", "4", "-v", "-"), "lines 2 words 2 bytes 21\n")
	f := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(f, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	ok(t, gizmo(t, dir, "", "text", "count", f), "2 5 21\n")
	// A missing file ends the process from inside the action (os.Exit(3)).
	if r := gizmo(t, dir, "", "text", "count", filepath.Join(dir, "nope")); r.code != 3 || r.stdout != "" || !strings.HasPrefix(r.stderr, "gizmo: count: ") {
		t.Fatalf("count of a missing file: %+v", r)
	}
}

func TestUsageError(t *testing.T) {
	r := gizmo(t, t.TempDir(), "", "text", "count", "--min-length", "x")
	if r.code != 1 || !strings.Contains(r.stdout, "Incorrect Usage") {
		t.Fatalf("got %+v", r)
	}
}
