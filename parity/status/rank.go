package status

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The migration score of an adapter command is out of 100 points (ScoreGoldens+ScoreParity
// +ScoreSize+ScoreShared+ScorePackage). Higher means "migrate sooner": the port can be
// proven, is small, and reuses what native tools already call.
const (
	// ScoreGoldens: the command has golden scripts (testdata/script/<domain>/*.txtar that
	// invoke it), so a native port can be checked against recorded behaviour.
	ScoreGoldens = 30
	// ScoreParity: its parity script testdata/script/parity/<stem>.txtar already exists.
	ScoreParity = 10
	// ScoreSize: the full points when its source file has at most SizeReference lines,
	// scaled by SizeReference/lines above that (twice the reference earns half). No points
	// when the source is unknown.
	ScoreSize = 30
	// ScoreShared: scaled by the share of its source's calls that native tool packages make
	// too (the delivery and ops functions a native port would reuse). Only calls into
	// packages the native tool packages call at all are counted, so the legacy command
	// framework (flag helpers, app builders) weighs nothing. No points when it has none.
	ScoreShared = 20
	// ScorePackage: another command of the same source package already has a native
	// implementation (its helpers and conventions are ported).
	ScorePackage = 10
	// SizeReference is the line count earning the full size points.
	SizeReference = 120
)

// Candidate is one adapter command ranked for migration (Report.MigrateNext).
type Candidate struct {
	Rank   int    `json:"rank"`
	Name   string `json:"name"`
	Domain string `json:"domain"`
	// Score is out of 100; Points says where it came from.
	Score  float64 `json:"score"`
	Points Points  `json:"points"`
	// GoldenScripts and ParityScript repeat the tool's row.
	GoldenScripts int  `json:"golden_scripts"`
	ParityScript  bool `json:"parity_script"`
	// Source is the command's Go file (relative to the repository when inside it) and
	// Lines its line count; both empty when the caller did not name the source.
	Source string `json:"source,omitempty"`
	Lines  int    `json:"lines,omitempty"`
	// Calls counts the distinct functions the source calls in packages native tools call
	// into; Shared lists those native tool packages call too.
	Calls  int      `json:"calls"`
	Shared []string `json:"shared,omitempty"`
	// NativeInPackage counts the commands of the same source package with a native
	// implementation.
	NativeInPackage int `json:"native_in_package"`
}

// Points are a candidate's score by criterion.
type Points struct {
	Goldens float64 `json:"goldens"`
	Parity  float64 `json:"parity"`
	Size    float64 `json:"size"`
	Shared  float64 `json:"shared"`
	Package float64 `json:"package"`
}

// Facts are what Rank knows about one command-backed tool.
type Facts struct {
	Name, Domain string
	// Stage is the tool's migration stage; only StageAdapter tools are ranked, the others
	// are context (their source packages count as ported when they have a native tool).
	Stage string
	// HasNative is true when a native implementation exists.
	HasNative     bool
	GoldenScripts int
	ParityScript  bool
	// Source is the command's Go file as shown; Package its directory; Lines its line
	// count (0: unknown); Calls the module functions it calls ("delivery.LoadWU").
	Source  string
	Package string
	Lines   int
	Calls   []string
}

// Rank scores the adapter-stage tools of facts and returns them best first (ties: fewer
// lines, then name), numbered from 1. native are the "pkg.Func" calls the native tool
// packages make. It is pure: the same arguments give the same ranking.
func Rank(facts []Facts, native []string) []Candidate {
	nativeCalls := map[string]bool{}
	nativePkgs := map[string]bool{} // packages native tools call into
	for _, c := range native {
		nativeCalls[c] = true
		if pkg, _, ok := strings.Cut(c, "."); ok {
			nativePkgs[pkg] = true
		}
	}
	nativePkg := map[string]int{} // source package -> commands in it with a native tool
	for _, f := range facts {
		if f.HasNative && f.Package != "" {
			nativePkg[f.Package]++
		}
	}
	out := []Candidate{}
	for _, f := range facts {
		if f.Stage != StageAdapter {
			continue
		}
		c := Candidate{Name: f.Name, Domain: f.Domain, GoldenScripts: f.GoldenScripts, ParityScript: f.ParityScript,
			Source: f.Source, Lines: f.Lines}
		if f.Package != "" {
			c.NativeInPackage = nativePkg[f.Package]
		}
		for _, call := range dedupe(f.Calls) {
			if pkg, _, _ := strings.Cut(call, "."); !nativePkgs[pkg] {
				continue
			}
			c.Calls++
			if nativeCalls[call] {
				c.Shared = append(c.Shared, call)
			}
		}
		if c.GoldenScripts > 0 {
			c.Points.Goldens = ScoreGoldens
		}
		if c.ParityScript {
			c.Points.Parity = ScoreParity
		}
		if c.Lines > 0 {
			c.Points.Size = round1(ScoreSize * math.Min(1, float64(SizeReference)/float64(c.Lines)))
		}
		if c.Calls > 0 {
			c.Points.Shared = round1(ScoreShared * float64(len(c.Shared)) / float64(c.Calls))
		}
		if c.NativeInPackage > 0 {
			c.Points.Package = ScorePackage
		}
		p := c.Points
		c.Score = round1(p.Goldens + p.Parity + p.Size + p.Shared + p.Package)
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if la, lb := linesOrMax(a.Lines), linesOrMax(b.Lines); la != lb {
			return la < lb
		}
		return a.Name < b.Name
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

func linesOrMax(n int) int {
	if n <= 0 {
		return math.MaxInt
	}
	return n
}

// dedupe returns the distinct strings of list, sorted.
func dedupe(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// sourceReader reads command sources for the ranking, each file once.
type sourceReader struct {
	dir    string
	module string // the module path in dir/go.mod ("" when there is none)
	read   bool
	files  map[string]sourceFacts
}

type sourceFacts struct {
	path  string // as given to the reader, resolved
	lines int
	calls []string
}

// migrateNext ranks the adapter commands of rows (see Rank). It reads the source of every
// command-backed tool (Tool.Source; one outside dir, or that does not exist, as from a
// binary built elsewhere, is left unknown) and, only when some source was read, the
// native tool packages under dir.
func migrateNext(dir string, tools []Tool, rows []ToolStatus) ([]Candidate, error) {
	byName := map[string]Tool{}
	for _, t := range tools {
		byName[t.Name] = t
	}
	sr := &sourceReader{dir: dir, files: map[string]sourceFacts{}}
	var out []Facts
	for _, r := range rows {
		if !r.HasCommand {
			continue
		}
		f := Facts{Name: r.Name, Domain: r.Domain, Stage: r.Stage, HasNative: r.HasNative,
			GoldenScripts: r.GoldenScripts, ParityScript: r.ParityScriptExists}
		if src := byName[r.Name].Source; src != "" {
			sf, ok, err := sr.load(src)
			if err != nil {
				return nil, err
			}
			if ok {
				f.Source = displayPath(dir, sf.path)
				f.Package = path.Dir(f.Source)
				f.Lines, f.Calls = sf.lines, sf.calls
			}
		}
		out = append(out, f)
	}
	var native []string
	if len(sr.files) > 0 {
		var err error
		if native, err = sr.nativeCalls(); err != nil {
			return nil, err
		}
	}
	return Rank(out, native), nil
}

// resolve turns a source path as a binary records it into a file path: absolute paths stay,
// a trimmed path (module/pkg/file.go, from -trimpath builds) is taken inside dir, anything
// else is relative to dir.
func (s *sourceReader) resolve(src string) string {
	if filepath.IsAbs(src) {
		return filepath.Clean(src)
	}
	slashed := filepath.ToSlash(src)
	if m := s.modulePath(); m != "" && strings.HasPrefix(slashed, m+"/") {
		slashed = strings.TrimPrefix(slashed, m+"/")
	}
	return filepath.Join(s.dir, filepath.FromSlash(slashed))
}

func (s *sourceReader) load(src string) (sourceFacts, bool, error) {
	p := s.resolve(src)
	if rel, err := filepath.Rel(s.dir, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return sourceFacts{}, false, nil // outside the repository reported on: unknown
	}
	if sf, ok := s.files[p]; ok {
		return sf, sf.path != "", nil
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		s.files[p] = sourceFacts{}
		return sourceFacts{}, false, nil
	}
	if err != nil {
		return sourceFacts{}, false, fmt.Errorf("source %s: %w", displayPath(s.dir, p), err)
	}
	sf := sourceFacts{path: p, lines: bytes.Count(data, []byte("\n")), calls: moduleCalls(data, s.modulePath())}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		sf.lines++
	}
	s.files[p] = sf
	return sf, true, nil
}

// modulePath is the module path of the repository's go.mod, read once.
func (s *sourceReader) modulePath() string {
	if !s.read {
		s.read = true
		s.module = readModulePath(filepath.Join(s.dir, "go.mod"))
	}
	return s.module
}

// readModulePath reads the module line of a go.mod file ("" when it cannot).
func readModulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) >= 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`)
		}
	}
	return ""
}

// moduleCalls returns the distinct "pkg.Func" calls of a Go file into packages of module
// (its import path's last element names pkg), or into any non-standard package when module
// is "". A file that does not parse has none.
func moduleCalls(src []byte, module string) []string {
	file, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	pkgs := map[string]string{} // local name -> shown name
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		inModule := module != "" && (p == module || strings.HasPrefix(p, module+"/"))
		if module == "" {
			first, _, _ := strings.Cut(p, "/")
			inModule = strings.Contains(first, ".")
		}
		if !inModule {
			continue
		}
		name := path.Base(p)
		if imp.Name != nil {
			if imp.Name.Name == "_" || imp.Name.Name == "." {
				continue
			}
			name = imp.Name.Name
		}
		pkgs[name] = path.Base(p)
	}
	var calls []string
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fun := call.Fun
		if ix, ok := fun.(*ast.IndexExpr); ok { // a generic call: pkg.F[T](...)
			fun = ix.X
		}
		if sel, ok := fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if shown, ok := pkgs[id.Name]; ok {
					calls = append(calls, shown+"."+sel.Sel.Name)
				}
			}
		}
		return true
	})
	return dedupe(calls)
}

// Why says in a few words what the score rests on: "2 goldens, parity script, 96 lines,
// shares 3/4 calls, 5 native in package".
func (c Candidate) Why() string {
	var parts []string
	switch c.GoldenScripts {
	case 0:
		parts = append(parts, "no goldens")
	case 1:
		parts = append(parts, "1 golden")
	default:
		parts = append(parts, strconv.Itoa(c.GoldenScripts)+" goldens")
	}
	if c.ParityScript {
		parts = append(parts, "parity script")
	}
	if c.Lines > 0 {
		parts = append(parts, strconv.Itoa(c.Lines)+" lines")
	} else {
		parts = append(parts, "size unknown")
	}
	if c.Calls > 0 {
		parts = append(parts, fmt.Sprintf("shares %d/%d calls", len(c.Shared), c.Calls))
	}
	if c.NativeInPackage > 0 {
		parts = append(parts, fmt.Sprintf("%d native in package", c.NativeInPackage))
	}
	return strings.Join(parts, ", ")
}

// nativeMarker is how a native tool is built (tool/native.New); a directory with a
// non-test Go file calling it is a native tool package.
const nativeMarker = "native.New("

// skipDir are directories the native scan does not enter besides hidden ones.
var skipDir = map[string]bool{"testdata": true, "vendor": true, "node_modules": true, "bin": true}

// nativeCalls walks dir for native tool packages (see nativeMarker) and returns the
// distinct module calls of their non-test Go files.
func (s *sourceReader) nativeCalls() ([]string, error) {
	byDir := map[string][][]byte{}
	native := map[string]bool{}
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != s.dir && (strings.HasPrefix(name, ".") || skipDir[name]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dir := filepath.Dir(p)
		byDir[dir] = append(byDir[dir], data)
		if bytes.Contains(data, []byte(nativeMarker)) {
			native[dir] = true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("native sources: %w", err)
	}
	var calls []string
	for dir := range native {
		for _, data := range byDir[dir] {
			calls = append(calls, moduleCalls(data, s.modulePath())...)
		}
	}
	return dedupe(calls), nil
}
