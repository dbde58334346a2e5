package all_test

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/tool"
)

// repoRoot is the module root, two levels above this package.
var repoRoot = filepath.Join("..", "..")

// piece is one corpus tool as the layout sees it: its stem, its domain folder, and which
// registries hold it.
type piece struct {
	name, stem, folder   string
	legacy, native       bool
	legacyDom, nativeDom string
}

// domainFolder is the folder a domain's pieces live in: the domain with everything but
// letters and digits dropped (lane-lock → lanelock), a Go package name.
func domainFolder(domain string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(domain) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// corpusTools lists every registered corpus tool (commands.Default and
// nativetools.Default), by stem.
func corpusTools(t *testing.T) map[string]*piece {
	byStem := map[string]*piece{}
	get := func(name string) *piece {
		s := tool.Stem(name)
		p, ok := byStem[s]
		if !ok {
			p = &piece{name: name, stem: s}
			byStem[s] = p
		}
		require.Equal(t, name, p.name, "two tools share the stem %s", s)
		return p
	}
	for _, c := range commands.All() {
		p := get(c.Name)
		p.legacy, p.legacyDom = true, c.Domain
	}
	for _, n := range nativetools.Default.All() {
		p := get(n.Spec.Name)
		p.native, p.nativeDom = true, n.Spec.Domain
	}
	for _, p := range byStem {
		d := p.legacyDom
		if !p.legacy {
			d = p.nativeDom
		}
		p.folder = domainFolder(d)
	}
	require.NotEmpty(t, byStem)
	return byStem
}

// registrations maps each tool name registered under root/<top>/<folder>/*.go (one
// folder level, tests excluded) to the file whose composite literal of type lit (a
// "pkg.Type" selector: legacy.Command, tool.Spec) names it with a constant Name.
func registrations(t *testing.T, top, lit string) map[string]string {
	pkg, typ, _ := strings.Cut(lit, ".")
	files, err := filepath.Glob(filepath.Join(repoRoot, top, "*", "*.go"))
	require.NoError(t, err)
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		rel := slashRel(t, f)
		ast.Inspect(file, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			sel, ok := cl.Type.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != typ {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != pkg {
				return true
			}
			for _, e := range cl.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != "Name" {
					continue
				}
				if bl, ok := kv.Value.(*ast.BasicLit); ok && bl.Kind == token.STRING {
					name, err := strconv.Unquote(bl.Value)
					require.NoError(t, err)
					out[name] = rel
				}
			}
			return true
		})
	}
	return out
}

// slashRel is f relative to the module root, with forward slashes.
func slashRel(t *testing.T, f string) string {
	rel, err := filepath.Rel(repoRoot, f)
	require.NoError(t, err)
	return filepath.ToSlash(rel)
}

// TestEveryPieceOfACorpusToolIsWhereItsStemSays checks the layout of
// docs/architecture.md ("Where a tool lives"): for a tool with stem S = tool.Stem(name)
// and domain folder D, the legacy command is commands/D/S.go, the native twin
// nativetools/D/S.go (its own test, if any, S_test.go beside it), the shared logic
// delivery/ops/S.go, the corpus script testdata/script/D/S.txtar and the parity script
// testdata/script/parity/S.txtar; no other file is named after a tool.
func TestEveryPieceOfACorpusToolIsWhereItsStemSays(t *testing.T) {
	tools := corpusTools(t)
	legacyAt := registrations(t, "commands", "legacy.Command")
	nativeAt := registrations(t, "nativetools", "tool.Spec")
	stems := make([]string, 0, len(tools))
	for s := range tools {
		stems = append(stems, s)
	}
	sort.Strings(stems)

	for _, s := range stems {
		p := tools[s]
		if p.legacy {
			want := "commands/" + p.folder + "/" + s + ".go"
			assert.Equal(t, want, legacyAt[p.name], "%s: the legacy command is registered in %q, not where the pattern puts it", p.name, legacyAt[p.name])
			script := "testdata/script/" + p.folder + "/" + s + ".txtar"
			assert.FileExists(t, filepath.Join(repoRoot, filepath.FromSlash(script)), "%s: no corpus script where the pattern puts it", p.name)
		}
		if p.native {
			want := "nativetools/" + p.folder + "/" + s + ".go"
			assert.Equal(t, want, nativeAt[p.name], "%s: the native tool is registered in %q, not where the pattern puts it", p.name, nativeAt[p.name])
			if p.legacy {
				assert.Equal(t, p.legacyDom, p.nativeDom, "%s: the native twin's domain differs from its legacy command's", p.name)
			}
		}
	}

	// No other Go file under commands/<folder>/, nativetools/<folder>/ or delivery/ops/
	// is named after a tool: a helper serving several tools keeps a neutral name.
	for _, glob := range []string{"commands/*/*.go", "nativetools/*/*.go", "delivery/ops/*.go"} {
		files, err := filepath.Glob(filepath.Join(repoRoot, filepath.FromSlash(glob)))
		require.NoError(t, err)
		for _, f := range files {
			rel := slashRel(t, f)
			s := strings.TrimSuffix(strings.TrimSuffix(path.Base(rel), ".go"), "_test")
			p, ok := tools[s]
			if !ok {
				continue
			}
			switch top := strings.SplitN(rel, "/", 2)[0]; {
			case top == "delivery":
				// delivery/ops/S.go is the tool's shared logic wherever the tool lives.
			case top == "commands" && p.legacy && path.Dir(rel) == "commands/"+p.folder,
				top == "nativetools" && p.native && path.Dir(rel) == "nativetools/"+p.folder:
			default:
				t.Errorf("%s: %s is named after the tool but is not where the pattern puts its pieces", p.name, rel)
			}
		}
	}

	// Scripts in the corpus's folders (a toolkit package's own testdata holds fixtures,
	// not pieces): a script named after a tool is its corpus script (in its domain
	// folder) or its parity script (in testdata/script/parity); a parity script anywhere
	// else, or a script outside testdata/script/parity running the parity command, is
	// misplaced.
	parityDir := filepath.Join(repoRoot, "testdata", "script", "parity")
	for _, top := range []string{"testdata", "commands", "nativetools", "delivery"} {
		walkScripts(t, filepath.Join(repoRoot, top), func(f string) {
			checkScript(t, tools, parityDir, f)
		})
	}
}

// walkScripts calls fn with every *.txtar under dir.
func walkScripts(t *testing.T, dir string, fn func(f string)) {
	err := filepath.WalkDir(dir, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(f, ".txtar") {
			fn(f)
		}
		return nil
	})
	require.NoError(t, err)
}

// checkScript reports a script the layout misplaces: a parity script not named after
// the tool it runs, or named after a tool but not in testdata/script/parity; a corpus
// script outside its tool's domain folder; the parity command run outside
// testdata/script/parity.
func checkScript(t *testing.T, tools map[string]*piece, parityDir, f string) {
	rel := slashRel(t, f)
	s := strings.TrimSuffix(path.Base(rel), ".txtar")
	p, named := tools[s]
	runs := parityRuns(t, f)
	switch {
	case filepath.Dir(f) == parityDir && !named:
		t.Errorf("parity script %s is named after no registered tool", rel)
	case filepath.Dir(f) == parityDir:
		assert.Contains(t, runs, p.name, "%s: its parity script %s does not run it", p.name, rel)
	case named && (path.Base(path.Dir(rel)) == "parity" || len(runs) > 0):
		t.Errorf("%s: parity script %s is not at testdata/script/parity/%s.txtar", p.name, rel, s)
	case named && strings.HasPrefix(rel, "testdata/script/") && rel != "testdata/script/"+p.folder+"/"+s+".txtar":
		t.Errorf("%s: corpus script %s is not at testdata/script/%s/%s.txtar", p.name, rel, p.folder, s)
	case strings.HasPrefix(rel, "testdata/script/") && len(runs) > 0:
		t.Errorf("%v: %s runs the parity command outside testdata/script/parity", runs, rel)
	}
}

// parityRuns lists the tools a testscript script runs with the parity command
// (`parity [-C dir] [-lanes a,b] TOOL [JSON]`, package parity), sorted, once each.
func parityRuns(t *testing.T, file string) []string {
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "-- ") {
			break // the archive's files start here
		}
		words := strings.Fields(strings.TrimPrefix(line, "!"))
		if len(words) == 0 || words[0] != "parity" {
			continue
		}
		i := 1
		for i < len(words) && strings.HasPrefix(words[i], "-") {
			i += 2 // every option takes a value
		}
		if i < len(words) {
			seen[words[i]] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// corpusPaths are the module's corpus folders (docs/architecture.md): everything else is
// the toolkit.
var corpusPaths = []string{"commands", "nativetools", "delivery", "cmd/delivery", "cmd/cmdbridge", "testdata"}

// TestNoToolkitPackageImportsTheCorpus: no toolkit package depends, directly or
// through others, on a corpus package; only binaries and tests link the corpus in.
func TestNoToolkitPackageImportsTheCorpus(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	goList := func(args ...string) string {
		cmd := exec.Command("go", append([]string{"list"}, args...)...)
		cmd.Dir = repoRoot
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, "go list: %s", stderr.String())
		return string(out)
	}
	mod := strings.TrimSpace(goList("-m"))
	corpus := func(pkg string) bool {
		rel, ok := strings.CutPrefix(pkg, mod+"/")
		if !ok {
			return false
		}
		for _, c := range corpusPaths {
			if rel == c || strings.HasPrefix(rel, c+"/") {
				return true
			}
		}
		return false
	}
	toolkit := 0
	for _, line := range strings.Split(strings.TrimSpace(goList("-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", "./...")), "\n") {
		deps := strings.Fields(line)
		if len(deps) == 0 || corpus(deps[0]) || (deps[0] != mod && !strings.HasPrefix(deps[0], mod+"/")) {
			continue
		}
		toolkit++
		for _, d := range deps[1:] {
			if corpus(d) {
				t.Errorf("toolkit package %s imports corpus package %s", deps[0], d)
			}
		}
	}
	assert.Positive(t, toolkit, "no toolkit package listed")
}
