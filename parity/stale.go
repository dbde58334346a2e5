package parity

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Program is what a parity run knows about the executable it runs in: the native lane
// is that executable's native registry, so a binary built before a native tool was
// added (or changed) in source compares the wrong code.
type Program struct {
	// Exe is the running executable.
	Exe string
	// Built is its modification time: when `go build` or `go install` wrote it.
	Built time.Time
	// FromSource is true when the go command built it into a temporary go-build
	// directory (`go run`, `go test`): it is as new as the source.
	FromSource bool
	// Test is true for a `go test` binary: its registries are the test's own.
	Test bool
	// MainPath is the main package's import path and Module the main module's path,
	// from the binary's build info ("" when it has none).
	MainPath, Module string
}

// CurrentProgram describes the running executable (os.Executable, its modification
// time, debug.ReadBuildInfo).
func CurrentProgram() (Program, error) {
	exe, err := os.Executable()
	if err != nil {
		return Program{}, fmt.Errorf("locate the running program: %w", err)
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	st, err := os.Stat(exe)
	if err != nil {
		return Program{}, fmt.Errorf("locate the running program: %w", err)
	}
	p := Program{Exe: exe, Built: st.ModTime()}
	for _, el := range strings.Split(filepath.ToSlash(filepath.Dir(exe)), "/") {
		if strings.HasPrefix(el, "go-build") {
			p.FromSource = true
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		p.MainPath, p.Module = bi.Path, bi.Main.Path
		p.Test = strings.HasSuffix(bi.Path, ".test")
	}
	return p, nil
}

// StaleCheck returns the Suite.Check of a parity run of the scripts in scriptDir by
// prog, whose native registry answers has, and a line saying what is checked when the
// check is off or limited ("" when the full check is on).
//
// The source is the Go module holding scriptDir (the nearest go.mod above it); it is
// compared with prog only when it is prog's main module. A tool's native source file is
// nativetools/<domain>/<stem>.go under the module root holding the tool's quoted name
// (where `cmdbridge scaffold` writes it; docs/architecture.md, "Where a tool lives").
// The check refuses a tool when
//
//   - the source has its native file but prog's native registry does not hold the tool:
//     a binary built before the tool was scaffolded, which would compare the legacy
//     lanes only and call that a pass (from source, the file's package is not linked
//     into the program);
//   - the native file is newer than prog (a built binary only): the native lane would
//     run the handler as it was when prog was built.
//
// Both are a stat and a read of one small file per tool. A handler's helper in another
// file is not looked at; a checkout that touches files after a build makes the check
// ask for a rebuild that changes nothing (harmless, and said so). A go test binary is
// never checked (its registries are the test's own).
func StaleCheck(prog Program, scriptDir string, has func(name string) bool) (func(name string) string, string) {
	if prog.Test {
		return nil, "parity: stale-binary check off: this is a go test binary, whose native registry is the test's own"
	}
	dir, err := filepath.Abs(scriptDir)
	if err != nil {
		return nil, fmt.Sprintf("parity: stale-binary check off: %v", err)
	}
	root, modPath, err := moduleOf(dir)
	if err != nil {
		return nil, fmt.Sprintf("parity: stale-binary check off: %v", err)
	}
	if prog.Module == "" {
		return nil, "parity: stale-binary check off: this program has no build info to tie it to the source in " + root
	}
	if prog.Module != modPath {
		return nil, fmt.Sprintf("parity: stale-binary check off: the scripts are in module %s, this program was built from %s", modPath, prog.Module)
	}
	pkg := "."
	if rest, ok := strings.CutPrefix(prog.MainPath, prog.Module+"/"); ok {
		pkg = "./" + rest
	}
	note := ""
	if prog.FromSource {
		note = fmt.Sprintf("parity: running from source (go run %s): the program is as new as the source; checking only that every native tool in the source is registered", pkg)
	}
	return func(name string) string {
		file, mod := nativeSource(root, name)
		if file == "" {
			return ""
		}
		rebuild := fmt.Sprintf("Rebuild it: `go build -o %s %s` in %s (or `go install %s`), or run from source: `go run %s parity %s`",
			prog.Exe, pkg, root, pkg, pkg, name)
		switch {
		case !has(name) && prog.FromSource:
			return fmt.Sprintf("not linked: the source has a native %s (%s) but this program's native registry does not hold it, "+
				"so parity would compare the legacy lanes only. Import its package from the program's main (e.g. through nativetools/all) "+
				"or register the tool into the registry the program serves", name, file)
		case !has(name):
			return fmt.Sprintf("stale binary: the source has a native %s (%s) but this binary (%s, built %s) does not register it, "+
				"so parity would compare the legacy lanes only and call that a pass. %s",
				name, file, prog.Exe, prog.Built.UTC().Format(time.RFC3339), rebuild)
		case !prog.FromSource && mod.After(prog.Built):
			return fmt.Sprintf("stale binary: %s (native %s) changed at %s, after this binary (%s) was built at %s, "+
				"so its native lane runs the handler as it was then. %s",
				file, name, mod.UTC().Format(time.RFC3339), prog.Exe, prog.Built.UTC().Format(time.RFC3339), rebuild)
		}
		return ""
	}, note
}

// nativeSource returns the native source file of a tool under a module root
// (nativetools/<domain>/<stem>.go naming the tool), slash-separated and relative to
// root, and its modification time; "" when there is none.
func nativeSource(root, name string) (string, time.Time) {
	matches, _ := filepath.Glob(filepath.Join(root, "nativetools", "*", tool.Stem(name)+".go"))
	sort.Strings(matches)
	quoted := []byte(`"` + name + `"`)
	for _, m := range matches {
		st, err := os.Stat(m)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		b, err := os.ReadFile(m)
		if err != nil || !bytes.Contains(b, quoted) {
			continue
		}
		rel, err := filepath.Rel(root, m)
		if err != nil {
			rel = m
		}
		return filepath.ToSlash(rel), st.ModTime()
	}
	return "", time.Time{}
}

// moduleOf finds the nearest go.mod at or above dir: its directory and module path.
func moduleOf(dir string) (string, string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			if p := modfile.ModulePath(b); p != "" {
				return d, p, nil
			}
			return "", "", fmt.Errorf("%s has no module line", filepath.Join(d, "go.mod"))
		}
		if filepath.Dir(d) == d {
			return "", "", fmt.Errorf("no go.mod at or above %s, so no source to compare this program with", dir)
		}
	}
}
