// Package outsidetest builds the outside modules under testdata (programs written
// without cmdbridge in mind) for tests: a copy of the module, optionally adopted (the
// cmdbridge requirement pointed at this working tree, and an edit such as the one added
// line), built once per test binary and key.
package outsidetest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/cmdbridge/cmdbridge/internal/adopted"
)

// Spec says which module to build and how.
type Spec struct {
	// Root is this repository's root (absolute); Src the module's directory under it.
	Root, Src string
	// Adopt requires github.com/cmdbridge/cmdbridge, replaced by Root, and tidies the
	// module before building.
	Adopt bool
	// Edit changes the copy before it is built (nil: none), e.g. [OneLine].
	Edit func(dir string) error
	// Packages are built into Bin (default "."; "./cmd/..." builds several).
	Packages []string
	// Tags are build tags.
	Tags []string
	// InPlace builds Packages in Root/Src itself, without a copy (Edit and Adopt must be
	// unset): the cmdbridge host, cmd/cmdbridge, is built so ([Host]).
	InPlace bool
	// ID names what Edit does (the shared cache of [CacheEnv] keys builds by it): two
	// specs with the same key, Src and ID build the same program.
	ID string
}

// CacheEnv names a directory where builds are shared across test binaries (scripts/test.sh
// sets it to a directory of its own run, so the toolkit's source cannot change under it).
// Unset, [M] gives each test binary one of its own.
const CacheEnv = "CMDBRIDGE_OUTSIDE_CACHE"

// M wraps a test binary's *testing.M: its Run runs the tests with [CacheEnv] set, to a
// directory of this binary's own that is removed when they end unless the run already
// shares one. Every package whose tests [Build] calls it from TestMain
// (os.Exit(outsidetest.M(m).Run()), or testscript.Main(outsidetest.M(m), …)), so that no
// build outlives its test binary; the binary's child processes inherit the directory.
func M(m interface{ Run() int }) interface{ Run() int } { return withCache{m} }

type withCache struct{ m interface{ Run() int } }

func (w withCache) Run() int {
	if os.Getenv(CacheEnv) != "" {
		return w.m.Run()
	}
	dir, err := os.MkdirTemp("", "cmdbridge-outside-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "outsidetest:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Setenv(CacheEnv, dir); err != nil {
		fmt.Fprintln(os.Stderr, "outsidetest:", err)
		return 1
	}
	return w.m.Run()
}

// Module is a built copy of an outside module.
type Module struct {
	Dir string // the copy of the module's source
	Bin string // the directory the binaries were built into
}

// Exe is the path of the binary named name in m.Bin.
func (m Module) Exe(name string) string { return filepath.Join(m.Bin, name) }

type built struct {
	once sync.Once
	m    Module
	err  error
}

var cache sync.Map // key → *built

// Build builds spec once per test binary under key (tests asking for the same key get the
// same Module; they must not change its Dir or Bin, and tests of other packages asking for
// the same key get the same build when [CacheEnv] is set) and fails t when the build fails.
// A test's programs are linked without DWARF (-ldflags=-w, unless GOFLAGS sets -ldflags);
// a benchmark's (t a *testing.B) as their authors ship them, in builds of their own.
func Build(t testing.TB, key string, spec Spec) Module {
	t.Helper()
	if spec.Adopt {
		Host(t, spec.Root)
	}
	ldflags := ""
	if _, bench := t.(*testing.B); !bench && !strings.Contains(os.Getenv("GOFLAGS"), "-ldflags") {
		// Tests link without DWARF (nothing debugs these programs; a third off each
		// link); a benchmark measures the programs as their authors ship them.
		ldflags = "-w"
	}
	v, _ := cache.LoadOrStore(key+"\x00"+ldflags, new(built))
	b := v.(*built)
	b.once.Do(func() { b.m, b.err = shared(key, spec, ldflags) })
	if b.err != nil {
		t.Fatalf("building the outside module %s: %v", spec.Src, b.err)
	}
	return b.m
}

// shared builds spec in the directory of [CacheEnv] named by a hash of what identifies
// it, under a file lock, unless another test binary of the run built it there already.
func shared(key string, spec Spec, ldflags string) (Module, error) {
	cache := os.Getenv(CacheEnv)
	if cache == "" {
		return Module{}, fmt.Errorf("%s is not set: the package's TestMain must run its tests through outsidetest.M, which gives the test binary a build directory of its own and removes it", CacheEnv)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %q %v %q %q %q %q", key, spec.Root, spec.Src, spec.Adopt, spec.Packages, spec.Tags, spec.ID, ldflags)
	dir := filepath.Join(cache, hex.EncodeToString(h.Sum(nil))[:16])
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return Module{}, err
	}
	unlock, err := lockedfile.MutexAt(dir + ".lock").Lock()
	if err != nil {
		return Module{}, err
	}
	defer unlock()
	done := filepath.Join(dir, "done")
	if _, err := os.Stat(done); err == nil {
		return Module{Dir: filepath.Join(dir, "src"), Bin: filepath.Join(dir, "bin")}, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return Module{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Module{}, err
	}
	m, err := build(dir, spec, ldflags)
	if err != nil {
		return m, err
	}
	return m, os.WriteFile(done, nil, 0o644)
}

// build copies the module into tmp/src, edits and builds it into tmp/bin (with -ldflags
// ldflags, unless empty).
func build(tmp string, spec Spec, ldflags string) (Module, error) {
	m := Module{Dir: filepath.Join(tmp, "src"), Bin: filepath.Join(tmp, "bin")}
	if spec.InPlace {
		if spec.Edit != nil || spec.Adopt {
			return m, fmt.Errorf("an in-place build edits nothing")
		}
		m.Dir = filepath.Join(spec.Root, spec.Src)
	} else if err := os.CopyFS(m.Dir, os.DirFS(filepath.Join(spec.Root, spec.Src))); err != nil {
		return m, err
	}
	if spec.Edit != nil {
		if err := spec.Edit(m.Dir); err != nil {
			return m, err
		}
	}
	var steps [][]string
	if spec.Adopt {
		steps = append(steps,
			[]string{"mod", "edit", "-require", "github.com/cmdbridge/cmdbridge@v0.0.0", "-replace", "github.com/cmdbridge/cmdbridge=" + spec.Root},
			[]string{"mod", "tidy"})
	}
	pkgs := spec.Packages
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	buildArgs := []string{"build", "-o", m.Bin + string(filepath.Separator)}
	if len(spec.Tags) > 0 {
		buildArgs = append(buildArgs, "-tags", strings.Join(spec.Tags, ","))
	}
	if ldflags != "" {
		buildArgs = append(buildArgs, "-ldflags="+ldflags)
	}
	steps = append(steps, append(buildArgs, pkgs...))
	for _, args := range steps {
		cmd := exec.Command("go", args...)
		cmd.Dir = m.Dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return m, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return m, nil
}

// RepoRoot is this repository's root as a test finds it: the nearest directory above the
// working directory (the test's package directory) that holds a go.mod. It does not
// depend on the file names compiled into the test binary, which -trimpath shortens.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = up
	}
}

// Host builds the cmdbridge host (cmd/cmdbridge of the repository at root), which a
// program adopted with the light line execs to serve its commands, and points
// adopted.HostEnv at it in this process's environment, so every adopted program a test
// starts finds it (as `go install` would put it on an adopter's $PATH). It returns the
// host's path. [Build] calls it for every adopted module.
func Host(t testing.TB, root string) string {
	t.Helper()
	m := Build(t, "cmdbridge-host", Spec{Root: root, InPlace: true, Packages: []string{"./cmd/cmdbridge"}})
	exe := m.Exe("cmdbridge")
	hostEnvOnce.Do(func() { os.Setenv(adopted.HostEnv, exe) })
	return exe
}

var hostEnvOnce sync.Once

// Bridgecheck builds the standalone bridgecheck (cmd/bridgecheck of the repository at
// root) once per run, shared as every [Build] is, and returns its path.
func Bridgecheck(t testing.TB, root string) string {
	t.Helper()
	name := "bridgecheck"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return Build(t, "bridgecheck", Spec{Root: root, InPlace: true, Packages: []string{"./cmd/bridgecheck"}}).Exe(name)
}

// OneLine is an Edit that adopts cmdbridge in one line: it inserts line after the first
// line of file (relative to the module) that contains anchor, and adds the imports of
// cmdbridge, host and each framework's lines to the file, each when line names it.
func OneLine(file, anchor, line string) func(dir string) error {
	return func(dir string) error {
		path := filepath.Join(dir, file)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		i := bytes.Index(src, []byte(anchor))
		if i < 0 {
			return fmt.Errorf("%s: no line contains %q", file, anchor)
		}
		end := i + bytes.IndexByte(src[i:], '\n') + 1
		out := append([]byte{}, src[:end]...)
		out = append(out, "\t"+line+"\n"...)
		out = append(out, src[end:]...)
		imp := []byte("import (\n")
		j := bytes.Index(out, imp)
		if j < 0 {
			return fmt.Errorf("%s: no import block", file)
		}
		j += len(imp)
		var imports []byte
		for _, pkg := range []string{"cmdbridge", "host", "cobrabridge", "cobrahost", "v3bridge", "v3host", "devcli"} {
			if regexp.MustCompile(`\b` + pkg + `\.`).MatchString(line) {
				imports = fmt.Appendf(imports, "\t%q\n", packages[pkg])
			}
		}
		out = append(out[:j:j], append(imports, out[j:]...)...)
		return os.WriteFile(path, out, 0o644)
	}
}

// packages are the import paths OneLine adds.
var packages = map[string]string{"cmdbridge": adopted.Module, "host": adopted.Module + "/host",
	"cobrabridge": adopted.Module + "/cobrabridge", "cobrahost": adopted.Module + "/cobrabridge/cobrahost",
	"v3bridge": adopted.Module + "/v3bridge", "v3host": adopted.Module + "/v3bridge/v3host",
	"devcli": adopted.Module + "/surface/cli/devcli"}

// DBKit is the Spec of testdata/dbkit adopted with the light line (cmdbridge.Command(cfg)
// with cfg the Go expression given, "nil" for none), built as bin/dbkit.
func DBKit(root, cfg string) Spec { return dbkit(root, "cmdbridge.Command("+cfg+")") }

// DBKitHost is the Spec of testdata/dbkit adopted with the in-process line
// (host.Command(cfg), cfg a *host.Config expression), built as bin/dbkit.
func DBKitHost(root, cfg string) Spec { return dbkit(root, "host.Command("+cfg+")") }

func dbkit(root, call string) Spec {
	return Spec{
		Root: root, Src: "testdata/dbkit", Adopt: true, ID: call,
		Edit: OneLine("main.go", "app := newApp()", "app.Commands = append(app.Commands, "+call+") // the one added line"),
	}
}

// Kit is the Spec of testdata/<name> (cobrakit, a cobra program; v3kit, an urfave/cli v3
// program) adopted with line, the one added line (its framework's bridge added to the
// root newRoot built: `root.AddCommand(cobrabridge.Command(nil))`), built as
// bin/<name>. dev adds a file that gives the light line the developer commands (parity,
// scaffold; devcli.Enable), as an adopter's build with them would; an in-process line
// adds them in its line (host.Config{Subcommands: devcli.Commands()}).
func Kit(root, name, line string, dev bool) Spec {
	anchor := map[string]string{"cobrakit": "root := newRoot()", "v3kit": "cmd := newRoot()"}[name]
	id := line
	if dev {
		id += " (dev)"
	}
	return Spec{
		Root: root, Src: "testdata/" + name, Adopt: true, ID: id,
		Edit: func(dir string) error {
			if err := OneLine("main.go", anchor, line+" // the one added line")(dir); err != nil || !dev {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "dev.go"), []byte("package main\n\nimport \""+adopted.Module+"/surface/cli/devcli\"\n\n"+
				"func init() { devcli.Enable() } // parity and scaffold, for the light line\n"), 0o644)
		},
	}
}

// DBKitPlain is the Spec of testdata/dbkit as its authors ship it (no cmdbridge).
func DBKitPlain(root string) Spec { return Spec{Root: root, Src: "testdata/dbkit"} }

// GizmoPlain is the Spec of testdata/outside's gizmo as its authors would ship it: the
// unadopted main cmd/gizmo-plain (no cmdbridge in it), built as bin/gizmo-plain.
func GizmoPlain(root string) Spec {
	return Spec{Root: root, Src: "testdata/outside", Adopt: true, Packages: []string{"./cmd/gizmo-plain"}}
}
