package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/stretchr/testify/require"
	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/conductor"
	"github.com/cmdbridge/cmdbridge/surface/cli/devcli"
)

// allowed are spellings the documentation uses on purpose although they name nothing in
// the tree, each with the reason. An entry nothing in the docs uses any more fails the
// test, so the list cannot outgrow the documentation.
var allowed = map[string]string{
	"docs/../src/x":             "kernel.md: a workspace path the kernel refuses, not a file of this repository",
	"docs/link-to-outside/x":    "kernel.md: a workspace path the kernel refuses, not a file of this repository",
	"docs/link-to-outside/../x": "kernel.md: a workspace path the kernel refuses, not a file of this repository",
	"parity/last.json":          "parity.md: a file of the state directory (.git/cmdbridge/parity/last.json), as the sentence says",
	"nativetools.Registry":      "adopt.md, parity.md: the registry scaffold declares in an adopter's module (example.com/gizmo/nativetools), not the corpus's package",
}

// TestDocNames checks that what README.md and docs/*.md name exists: relative links and
// repository paths, the subcommands and flags of cmdbridge command lines (prose and every
// shell block, run or not), and the Go identifiers of this module's packages.
func TestDocNames(t *testing.T) {
	root := repoRoot(t)
	idx := indexPackages(t, root)
	// The docs spell conductor, parity and scaffold as the corpus binary has them.
	app := cli.App(cli.Host{Config: hostconfig.Config{Subcommands: append(devcli.Commands(), conductor.Command())}}, io.Discard, io.Discard)
	used := map[string]bool{}
	counts := map[string]int{}
	fail := func(where, kind, name, why string) {
		if _, ok := allowed[name]; ok {
			used[name] = true
			return
		}
		t.Errorf("%s: %s %s: %s", where, kind, name, why)
	}
	for _, p := range pages(t, root) {
		blocks, prose := p.blocks()
		for i, line := range prose {
			where := p.rel + ":" + fmt.Sprint(i+1)
			for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				target, _, _ = strings.Cut(target, "#")
				counts["links"]++
				if _, err := os.Stat(filepath.Join(root, filepath.Dir(p.rel), target)); err != nil {
					fail(where, "link", target, "no such file")
				}
			}
			for _, m := range spanRE.FindAllStringSubmatch(line, -1) {
				span := m[1]
				if id, ok := idx.pathIdent(span); ok {
					counts["Go identifiers"]++
					if why := idx.check(id); why != "" {
						fail(where, "identifier", span, why)
					}
					continue
				}
				if path, ok := repoPath(root, span); ok {
					counts["paths"]++
					if why := checkPath(root, filepath.Dir(p.rel), path); why != "" {
						fail(where, "path", span, why)
					}
					continue
				}
				if words, ok := commandLine(span); ok {
					counts["command lines"]++
					for _, why := range checkCommand(app, words, counts) {
						fail(where, "command line", span, why)
					}
					continue
				}
				if id, ok := goIdent(span, idx); ok {
					counts["Go identifiers"]++
					if why := idx.check(id); why != "" {
						fail(where, "identifier", id.String(), why)
					}
				}
			}
		}
		for _, b := range blocks {
			if b.lang == "go" {
				for j, line := range strings.Split(b.body, "\n") {
					for _, m := range goRefRE.FindAllStringSubmatch(line, -1) {
						if idx.pkgs[m[1]] == nil {
							continue
						}
						id := ident{m[1], m[2], m[3]}
						counts["Go identifiers"]++
						if why := idx.check(id); why != "" {
							fail(fmt.Sprintf("%s (line %d of the block)", b.where(), j+1), "identifier", id.String(), why)
						}
					}
				}
				continue
			}
			if !b.shell() {
				continue
			}
			for j, line := range strings.Split(b.commands(), "\n") {
				for _, words := range commandsIn(line) {
					counts["command lines"]++
					for _, why := range checkCommand(app, words, counts) {
						fail(fmt.Sprintf("%s (line %d of the block)", b.where(), j+1), "command line", strings.Join(words, " "), why)
					}
				}
			}
		}
	}
	for name := range allowed {
		if !used[name] {
			t.Errorf("allowed[%q] is not needed any more: remove it", name)
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var report []string
	for _, k := range keys {
		report = append(report, fmt.Sprintf("%d %s", counts[k], k))
	}
	t.Logf("checked %s; %d allowed by name", strings.Join(report, ", "), len(allowed))
	require.NotZero(t, counts["Go identifiers"])
	require.NotZero(t, counts["paths"])
	require.NotZero(t, counts["flags"])
}

var (
	linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	spanRE = regexp.MustCompile("`([^`]+)`")
)

// Paths.

var pathRE = regexp.MustCompile(`^[A-Za-z0-9_<{*][^\s]*$`)

// qualifiedName is a Go name qualified by its package's path in the module: PKG.Func,
// PKG.(*Type).Method or PKG.Type.Method.
var qualifiedName = regexp.MustCompile(`^([a-z][a-z0-9/]*)\.(?:\(\*?[A-Za-z_]\w*\)\.|[A-Za-z_]\w*\.)?[A-Za-z_]\w*$`)

// repoPath reports whether a span names a path of the repository: no spaces, a slash,
// and a first element that exists at the root (so workspace paths, import paths and
// absolute paths are left alone). A trailing ":LINE" or "/" is dropped.
func repoPath(root, span string) (string, bool) {
	if !pathRE.MatchString(span) || !strings.Contains(span, "/") || strings.Contains(span, "://") {
		return "", false
	}
	if m := qualifiedName.FindStringSubmatch(span); m != nil {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(m[1]))); err == nil && fi.IsDir() {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(span))); err != nil {
				// A Go name qualified by a package's path (surface/http.(*Server).callTool):
				// the architecture walk's names, which its own test checks.
				return "", false
			}
		}
	}
	p := strings.TrimSuffix(span, "/")
	if i := strings.LastIndex(p, ":"); i > 0 && strings.Trim(p[i+1:], "0123456789") == "" {
		p = p[:i]
	}
	first, _, _ := strings.Cut(p, "/")
	if strings.Contains(first, "<") {
		return "", false // under a placeholder (<workspace>/…): not the repository's
	}
	if strings.ContainsAny(first, "{*…") {
		return p, true // a pattern from the root: checked as one
	}
	if first == "bin" {
		return p, true // make build's output: checked against cmd/ (checkPath)
	}
	if _, err := os.Stat(filepath.Join(root, first)); err != nil {
		return "", false
	}
	return p, true
}

var placeholderRE = regexp.MustCompile(`<[^>/]+>|…`)

// checkPath says why path names nothing ("" when it exists): a pattern (`<stem>`, `*`,
// `{a,b}`) must match at least one file.
func checkPath(root, pageDir, path string) string {
	// bin/ holds what `make build` makes of cmd/ and `make deps` of the lint tools (git
	// ignores it, and a clean clone has none of it): bin/NAME exists when cmd/NAME does,
	// whatever was built here.
	if path == "bin" {
		return ""
	}
	if name, ok := strings.CutPrefix(path, "bin/"); ok && !strings.Contains(name, "/") {
		if name == "tools" {
			return "" // where `make deps` installs the pinned lint tools
		}
		if fi, err := os.Stat(filepath.Join(root, "cmd", name)); err == nil && fi.IsDir() {
			return ""
		}
		return "no cmd/" + name + " for `make build` to build into bin/"
	}
	pattern := placeholderRE.ReplaceAllString(path, "*")
	if !strings.ContainsAny(pattern, "*?[{") {
		if _, err := os.Stat(filepath.Join(root, path)); err == nil {
			return ""
		}
		if _, err := os.Stat(filepath.Join(root, pageDir, path)); err == nil {
			return ""
		}
		return "no such file or directory"
	}
	matches, err := doublestar.Glob(os.DirFS(root), pattern)
	if err != nil {
		return fmt.Sprintf("pattern %s: %v", pattern, err)
	}
	if len(matches) == 0 {
		return "the pattern " + pattern + " matches nothing"
	}
	return ""
}

// Command lines.

// programs are the spellings of the cmdbridge command line in the docs ($cb is the
// scale walkthrough's variable for bin/cmdbridge; `cmdbridge wrap PROGRAM` serves
// PROGRAM with the same command line), each followed by its argv.
var programRE = regexp.MustCompile(`(?:^|[\s(;&|]|\$\()((?:bin/|\$PWD/bin/)?cmdbridge wrap (?:--effects(?:=|\s+)[^\s]+\s+)?[^\s]+|(?:bin/|\$PWD/bin/)?cmdbridge|\$cb|gizmo bridge|mytool bridge)(?:\s|$)`)

// commandLine reports whether a prose span is a cmdbridge command line and splits it.
func commandLine(span string) ([]string, bool) {
	m := programRE.FindStringSubmatchIndex(span)
	if m == nil || strings.Contains(span, `\`) || m[0] != 0 && !strings.HasPrefix(span, "(") {
		return nil, false
	}
	return shellWords(span[m[2]:]), true
}

// commandsIn finds the cmdbridge command lines in one line of a shell block.
func commandsIn(line string) [][]string {
	var out [][]string
	for _, m := range programRE.FindAllStringSubmatchIndex(line, -1) {
		out = append(out, shellWords(line[m[2]:]))
	}
	return out
}

// shellWords splits a command at blanks, honouring quotes, up to the end of the
// command (an unquoted #, |, ;, &, <, >, ) or backtick). The program's words come first
// and are dropped.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in := false
	var quote rune
	flush := func() {
		if in {
			words = append(words, cur.String())
		}
		cur.Reset()
		in = false
	}
loop:
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			flush()
		case strings.ContainsRune("#|;&<>)`", r):
			break loop
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	flush()
	// Drop the program's words: "cmdbridge", "bin/cmdbridge", "$cb", "gizmo bridge",
	// "cmdbridge wrap [--effects FILE] PROGRAM".
	switch {
	case len(words) > 2 && words[1] == "wrap" && strings.HasSuffix(words[0], "cmdbridge"):
		rest := words[2:]
		// wrap's own option comes before the program: --effects FILE or --effects=FILE.
		if rest[0] == "--effects" && len(rest) > 2 {
			rest = rest[2:]
		} else if strings.HasPrefix(rest[0], "--effects=") && len(rest) > 1 {
			rest = rest[1:]
		}
		return rest[1:]
	case len(words) > 1 && words[1] == "bridge" && (words[0] == "gizmo" || words[0] == "mytool"):
		return words[2:]
	case len(words) > 0:
		return words[1:]
	}
	return nil
}

// checkCommand walks argv down the command tree: every word before the first
// positional must be a subcommand (where the command has no action of its own) and
// every flag must be one of the command's, its parents' or the app's.
func checkCommand(app *ucli.App, words []string, counts map[string]int) []string {
	var why []string
	flags := [][]ucli.Flag{app.Flags}
	subs := app.Commands
	hasAction := app.Action != nil
	path := []string{}
	positional := false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") && len(w) > 1 && w != "--" {
			name, _, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
			if name == "help" || name == "h" {
				continue
			}
			if name == "version" && len(path) == 0 {
				continue
			}
			counts["flags"]++
			f := findFlag(flags, name)
			if f == nil {
				why = append(why, fmt.Sprintf("%s has no flag %s", strings.Join(append([]string{app.Name}, path...), " "), w))
				continue
			}
			if tv, ok := f.(interface{ TakesValue() bool }); ok && tv.TakesValue() && !hasValue {
				i++ // its value
			}
			continue
		}
		if positional || w == "…" || strings.HasPrefix(w, "$") {
			positional = true
			continue
		}
		if c := findCommand(subs, w); c != nil {
			path = append(path, c.Name)
			flags = append(flags, c.Flags)
			subs, hasAction = c.Subcommands, c.Action != nil
			continue
		}
		if len(subs) > 0 && !hasAction {
			why = append(why, fmt.Sprintf("%s has no subcommand %q", strings.Join(append([]string{app.Name}, path...), " "), w))
		}
		positional = true
	}
	return why
}

func findFlag(levels [][]ucli.Flag, name string) ucli.Flag {
	for _, fl := range levels {
		for _, f := range fl {
			for _, n := range f.Names() {
				if n == name {
					return f
				}
			}
		}
	}
	return nil
}

func findCommand(cmds []*ucli.Command, name string) *ucli.Command {
	for _, c := range cmds {
		if c.Name == name {
			return c
		}
		for _, a := range c.Aliases {
			if a == name {
				return c
			}
		}
	}
	return nil
}

// Go identifiers.

var identRE = regexp.MustCompile(`^([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?([^A-Za-z0-9_]?)`)

// goRefRE finds pkg.Name[.Member] in Go code (not after a dot: x.pkg.Name is a field).
var goRefRE = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.])([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?`)

// ident is pkg.Name or pkg.Name.Member.
type ident struct{ pkg, name, member string }

func (id ident) String() string {
	s := id.pkg + "." + id.name
	if id.member != "" {
		s += "." + id.member
	}
	return s
}

// goIdent reports whether a span begins with an identifier of a package of this module
// (a pattern such as cli.Show*AndExit aside).
func goIdent(span string, idx *index) (ident, bool) {
	m := identRE.FindStringSubmatch(span)
	if m == nil || m[4] == "*" || idx.pkgs[m[1]] == nil {
		return ident{}, false
	}
	return ident{m[1], m[2], m[3]}, true
}

var pathIdentRE = regexp.MustCompile(`^([a-z][a-z0-9_]*(?:/[a-z][a-z0-9_]*)+)\.([A-Z][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?$`)

// pathIdent reads a span naming an identifier by the package's directory
// (commands/convention.App) as the identifier of that package.
func (idx *index) pathIdent(span string) (ident, bool) {
	m := pathIdentRE.FindStringSubmatch(span)
	if m == nil {
		return ident{}, false
	}
	for name, d := range idx.pkgs {
		for _, dir := range d.dirs {
			if dir == m[1] {
				return ident{name, m[2], m[3]}, true
			}
		}
	}
	return ident{}, false
}

// index holds the declarations of the module's packages, merged by package name (with
// the outside packages that share a name, so `cli.App` may be urfave's): top-level
// names, and the fields and methods of each type.
type index struct {
	pkgs map[string]*decls
}

type decls struct {
	names   map[string]bool
	members map[string]map[string]bool // type → fields, methods
	open    map[string]bool            // types embedding another package's type: members unknowable here
	dirs    []string
}

func (d *decls) member(typ, name string) {
	if d.members[typ] == nil {
		d.members[typ] = map[string]bool{}
	}
	d.members[typ][name] = true
}

func (idx *index) check(id ident) string {
	d := idx.pkgs[id.pkg]
	if !d.names[id.name] {
		return fmt.Sprintf("package %s (%s) declares no %s", id.pkg, strings.Join(d.dirs, ", "), id.name)
	}
	if id.member == "" || d.open[id.name] {
		return ""
	}
	ms, isType := d.members[id.name]
	if !isType || ms[id.member] || d.promoted(id.name, id.member, map[string]bool{}) {
		return "" // a variable's or function's members are its type's: not followed
	}
	return fmt.Sprintf("%s.%s has no field or method %s", id.pkg, id.name, id.member)
}

// promoted reports whether member reaches typ through a type it embeds (the embedded
// types' names are recorded as members "embed:Name").
func (d *decls) promoted(typ, member string, seen map[string]bool) bool {
	if seen[typ] {
		return false
	}
	seen[typ] = true
	for m := range d.members[typ] {
		if e, ok := strings.CutPrefix(m, "embed:"); ok && (d.members[e][member] || d.promoted(e, member, seen)) {
			return true
		}
	}
	return false
}

// outside are packages outside the module the docs name by the same package name as
// one of the module's.
var outside = []string{"github.com/urfave/cli/v2", "net/http", "github.com/modelcontextprotocol/go-sdk/mcp", "go/token"}

func indexPackages(t *testing.T, root string) *index {
	t.Helper()
	idx := &index{pkgs: map[string]*decls{}}
	dirs := map[string]bool{}
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (name == "testdata" || name == "bin" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			dirs[filepath.Dir(path)] = true
		}
		return nil
	}))
	for dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		idx.parseDir(t, dir, filepath.ToSlash(rel), true)
	}
	out, err := exec.Command("go", append([]string{"list", "-f", "{{.Dir}}"}, outside...)...).Output()
	require.NoError(t, err, "go list %v", outside)
	for i, dir := range strings.Fields(string(out)) {
		idx.parseDir(t, dir, outside[i], false)
	}
	return idx
}

// parseDir adds the exported declarations of a package directory's files (tests left
// out) to the index; a package outside the module only joins a name the module has.
func (idx *index) parseDir(t *testing.T, dir, label string, own bool) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		d := idx.pkgs[f.Name.Name]
		if d == nil {
			if !own {
				return
			}
			d = &decls{names: map[string]bool{}, members: map[string]map[string]bool{}, open: map[string]bool{}}
			idx.pkgs[f.Name.Name] = d
		}
		if len(d.dirs) == 0 || d.dirs[len(d.dirs)-1] != label {
			d.dirs = append(d.dirs, label)
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					d.names[decl.Name.Name] = true
					continue
				}
				if typ := recvType(decl.Recv.List[0].Type); typ != "" {
					d.member(typ, decl.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							d.names[n.Name] = true
						}
					case *ast.TypeSpec:
						d.names[spec.Name.Name] = true
						if d.members[spec.Name.Name] == nil {
							d.members[spec.Name.Name] = map[string]bool{}
						}
						d.typeMembers(spec.Name.Name, spec.Type)
					}
				}
			}
		}
	}
}

func (d *decls) typeMembers(typ string, expr ast.Expr) {
	switch x := expr.(type) {
	case *ast.StructType:
		for _, f := range x.Fields.List {
			for _, n := range f.Names {
				d.member(typ, n.Name)
			}
			if len(f.Names) == 0 {
				switch e := unstar(f.Type).(type) {
				case *ast.Ident:
					d.member(typ, e.Name)
					d.member(typ, "embed:"+e.Name)
				case *ast.SelectorExpr:
					d.member(typ, e.Sel.Name)
					d.open[typ] = true
				}
			}
		}
	case *ast.InterfaceType:
		for _, m := range x.Methods.List {
			for _, n := range m.Names {
				d.member(typ, n.Name)
			}
			if len(m.Names) == 0 {
				d.open[typ] = true
			}
		}
	case *ast.Ident, *ast.SelectorExpr:
		d.open[typ] = true // a defined type over another: its fields are that type's
	}
}

func unstar(e ast.Expr) ast.Expr {
	if s, ok := e.(*ast.StarExpr); ok {
		return s.X
	}
	return e
}

func recvType(e ast.Expr) string {
	switch x := unstar(e).(type) {
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return recvType(x.X)
	case *ast.IndexListExpr:
		return recvType(x.X)
	}
	return ""
}
