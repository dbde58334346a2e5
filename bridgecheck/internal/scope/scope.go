package scope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Default import path patterns (doublestar syntax, comma separated). Legacy packages
// have no default pattern: they are found by what they register.
const DefaultNative = "**/nativetools/**"

// CLIPath is the import path of urfave/cli v2.
const CLIPath = "github.com/urfave/cli/v2"

// Analyzer decides which rule set applies to a package and finds its commands. It
// reports nothing; its result is a *Scope.
var Analyzer = &analysis.Analyzer{
	Name:       "bridgescope",
	Doc:        "find the legacy command packages and native tool packages bridgecheck checks, and the commands they register",
	URL:        "https://github.com/cmdbridge/cmdbridge/blob/main/docs/adapter-safety.md",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	ResultType: reflect.TypeOf((*Scope)(nil)),
}

// The patterns the flags set; analyzers of one process share them.
var legacyPatterns, nativePatterns string

func init() {
	Analyzer.Flags.StringVar(&legacyPatterns, "legacy", "",
		"comma-separated import path `PATTERNS` of legacy command packages, replacing detection (by what a package registers or builds)")
	Analyzer.Flags.StringVar(&nativePatterns, "native", DefaultNative,
		"comma-separated import path `PATTERNS` of native tool packages")
}

// Scope is what the pass decided about one package.
type Scope struct {
	// Legacy and Native say which rule set applies (neither: the package is skipped).
	Legacy, Native bool
	// Registrations are the commands the package registers, in source order.
	Registrations []Registration

	// Main is func main of a package main that builds an app: the in-process lane
	// never runs it (nil otherwise).
	Main *ast.FuncDecl

	checked map[*token.File]bool
	fset    *token.FileSet
	// mainOnly is the code only Main reaches, and inProcess the code the in-process
	// lane runs (constructors, actions, registrations): what lies in the first and not
	// in the second is not checked by the rule families.
	mainOnly, inProcess []ast.Node
	reach               []ast.Node   // code a command, an action or (helpers) the exported API reaches
	owned               [][]ast.Node // per registration, the code it reaches
}

// Registration is one command registration: a struct literal with a constant string
// Name, a New func() *cli.App and a Main field.
type Registration struct {
	Name  string
	Pos   token.Pos
	seeds []ast.Node // the New and Main expressions
}

// Finding is one reported construct.
type Finding struct {
	Rule    string
	Subject string // what was found, as written: "os.Exit", "var logger", "recover()"
	Pos     token.Pos
}

// Checked reports whether pos lies in a file the rules apply to (a .go file of the
// package that is not a _test.go file).
func (s *Scope) Checked(pos token.Pos) bool {
	return s.checked[s.fset.File(pos)] && !s.MainOnly(pos)
}

// MainOnly reports whether pos lies in code of a package main that only its func main
// reaches (main itself, a .env loader it calls): the in-process lane never runs it, so
// the rule families leave it to the mainlogic pass.
func (s *Scope) MainOnly(pos token.Pos) bool {
	return within(s.mainOnly, pos) && !within(s.inProcess, pos)
}

// Reached reports whether pos lies in code a registration, a cli.App or cli.Command
// Action, Before or After, or (in a package that registers nothing) an exported
// function or method reaches by references.
func (s *Scope) Reached(pos token.Pos) bool { return within(s.reach, pos) }

// Owners returns the indexes in Registrations of the commands whose New and Main reach
// pos.
func (s *Scope) Owners(pos token.Pos) []int {
	var out []int
	for i, nodes := range s.owned {
		if within(nodes, pos) {
			out = append(out, i)
		}
	}
	return out
}

// Report reports f on pass as a diagnostic whose Category is the rule, with fixes.
func Report(pass *analysis.Pass, f Finding, fixes ...analysis.SuggestedFix) {
	pass.Report(analysis.Diagnostic{Pos: f.Pos, Category: f.Rule, Message: message(f.Rule, f.Subject, frameworkOf(pass.Pkg)), SuggestedFixes: fixes})
}

// Sort orders findings by file name, then offset: stable whatever order the files were
// loaded in.
func Sort(fset *token.FileSet, fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fset.Position(fs[i].Pos), fset.Position(fs[j].Pos)
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
}

func matches(patterns, path string) bool {
	path = strings.TrimSuffix(path, "_test") // the external test package of a match
	for _, p := range strings.Split(patterns, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if ok, _ := doublestar.Match(p, path); ok {
			return true
		}
	}
	return false
}

// actionFields are the cli.App and cli.Command fields holding code a run executes.
var actionFields = map[string]bool{"Action": true, "Before": true, "After": true}

// Other frameworks' command types and the fields holding the code a run executes: an
// urfave/cli v3 Command's, a cobra Command's hooks and runs.
const (
	CLIv3Path = "github.com/urfave/cli/v3"
	CobraPath = "github.com/spf13/cobra"
)

var cobraFields = map[string]bool{
	"Run": true, "RunE": true, "PreRun": true, "PreRunE": true, "PostRun": true, "PostRunE": true,
	"PersistentPreRun": true, "PersistentPreRunE": true, "PersistentPostRun": true, "PersistentPostRunE": true,
}

// runFields returns the fields of t holding code a run executes when t is a command type
// of a framework cmdbridge serves (urfave/cli v2's App and Command, v3's Command, cobra's
// Command, or a pointer to one), nil otherwise.
func runFields(t types.Type) map[string]bool {
	switch {
	case IsCLI(t, "App"), IsCLI(t, "Command"), isNamed(t, CLIv3Path, "Command"):
		return actionFields
	case isNamed(t, CobraPath, "Command"):
		return cobraFields
	}
	return nil
}

// IsApp reports whether t is (a pointer to) what a framework's main runs: urfave/cli
// v2's App, v3's Command, cobra's Command.
func IsApp(t types.Type) bool {
	return IsCLI(t, "App") || isNamed(t, CLIv3Path, "Command") || isNamed(t, CobraPath, "Command")
}

// IsRunMethod reports whether name, a method of (a pointer to) t, runs the program's
// app: Run and RunContext of a v2 App, Run of a v3 Command, cobra's Execute family.
func IsRunMethod(t types.Type, name string) bool {
	switch {
	case IsCLI(t, "App"):
		return name == "Run" || name == "RunContext"
	case isNamed(t, CLIv3Path, "Command"):
		return name == "Run"
	case isNamed(t, CobraPath, "Command"):
		return name == "Execute" || name == "ExecuteContext" || name == "ExecuteC" || name == "ExecuteContextC"
	}
	return false
}

// isCommandType reports whether t is (a pointer to) a framework's app or command type.
func isCommandType(t types.Type) bool { return runFields(t) != nil }

// isNamed reports whether t is (a pointer to) the type name of the package at path.
func isNamed(t types.Type, path, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

func run(pass *analysis.Pass) (any, error) {
	s := &Scope{checked: map[*token.File]bool{}, fset: pass.Fset}
	if strings.HasSuffix(pass.Pkg.Path(), ".test") {
		return s, nil
	}
	var files []*ast.File
	for _, f := range pass.Files {
		// Generated files outside the package (a test main) do not end in .go.
		tf := pass.Fset.File(f.Pos())
		if name := tf.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			files = append(files, f)
			s.checked[tf] = true
		}
	}
	s.Native = matches(nativePatterns, pass.Pkg.Path())
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	regs, actions := s.roots(pass, insp)
	s.Registrations = regs
	// A program: package main building an app with actions (its commands live there).
	program := pass.Pkg.Name() == "main" && len(actions) > 0
	if legacyPatterns != "" {
		s.Legacy = matches(legacyPatterns, pass.Pkg.Path())
	} else {
		s.Legacy = len(regs) > 0 || buildsApps(pass, files, actions) || program
	}
	if !s.Legacy {
		s.Registrations = nil
		return s, nil
	}

	g := newGraph(pass, files, insp, s)
	if program {
		s.Main = mainFunc(pass, files)
	}
	if s.Main != nil {
		// What the in-process lane runs: the constructors (funcs returning an app or a
		// command), the actions and the registrations; main and what only it reaches
		// (.env loading, error formatting) it skips.
		in := append([]ast.Node(nil), actions...)
		in = append(in, constructors(pass, files)...)
		for _, r := range regs {
			in = append(in, r.seeds...)
		}
		s.inProcess = g.closure(in)
		s.mainOnly = g.closure([]ast.Node{s.Main})
	}
	// go statements count only in code a command or an action can reach.
	var seeds []ast.Node
	seeds = append(seeds, actions...)
	for _, r := range regs {
		seeds = append(seeds, r.seeds...)
	}
	if len(regs) == 0 {
		// A helper package: its exported API is what commands call.
		seeds = append(seeds, g.exported...)
	}
	s.reach = g.closure(seeds)
	s.owned = make([][]ast.Node, len(regs))
	for i, r := range regs {
		s.owned[i] = g.closure(r.seeds)
	}
	return s, nil
}

// buildsApps reports whether the package hands commands to registrations made
// elsewhere: an exported function returning a *cli.App or *cli.Command that it builds
// with an Action, Before or After (commands/convention's App).
func buildsApps(pass *analysis.Pass, files []*ast.File, actions []ast.Node) bool {
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !fd.Name.IsExported() || fd.Body == nil {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			res := fn.Signature().Results()
			returnsApp := false
			for i := 0; i < res.Len(); i++ {
				if isCommandType(res.At(i).Type()) {
					returnsApp = true
				}
			}
			if returnsApp && holdsAny(fd.Body, actions) {
				return true
			}
		}
	}
	return false
}

// mainFunc is the package's func main, when it has one.
func mainFunc(pass *analysis.Pass, files []*ast.File) *ast.FuncDecl {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" && fd.Body != nil {
				return fd
			}
		}
	}
	return nil
}

// constructors are the package's functions and methods returning a *cli.App or a
// *cli.Command: what builds the app the in-process lane runs.
func constructors(pass *analysis.Pass, files []*ast.File) []ast.Node {
	var out []ast.Node
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			res := fn.Signature().Results()
			for i := 0; i < res.Len(); i++ {
				if isCommandType(res.At(i).Type()) {
					out = append(out, fd)
					break
				}
			}
		}
	}
	return out
}

// holdsAny reports whether one of nodes starts inside n.
func holdsAny(n ast.Node, nodes []ast.Node) bool {
	for _, a := range nodes {
		if n.Pos() <= a.Pos() && a.Pos() < n.End() {
			return true
		}
	}
	return false
}

// roots finds the package's command registrations and the expressions assigned to
// cli.App or cli.Command Action, Before and After fields.
func (s *Scope) roots(pass *analysis.Pass, insp *inspector.Inspector) (regs []Registration, actions []ast.Node) {
	info := pass.TypesInfo
	for cur := range insp.Root().Preorder((*ast.CompositeLit)(nil), (*ast.AssignStmt)(nil)) {
		if !s.Checked(cur.Node().Pos()) {
			continue
		}
		switch n := cur.Node().(type) {
		case *ast.CompositeLit:
			tv, ok := info.Types[n]
			if !ok {
				continue
			}
			if fields := runFields(tv.Type); fields != nil {
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && fields[k.Name] {
							actions = append(actions, kv.Value)
						}
					}
				}
				continue
			}
			if r, ok := registrationOf(info, n, tv.Type); ok {
				regs = append(regs, r)
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				sel, ok := lhs.(*ast.SelectorExpr)
				if !ok || len(n.Rhs) != len(n.Lhs) {
					continue
				}
				if tv, ok := info.Types[sel.X]; ok && runFields(tv.Type)[sel.Sel.Name] {
					actions = append(actions, n.Rhs[i])
				}
			}
		}
	}
	return regs, actions
}

// registrationOf recognises a command registration by shape, whatever its package: a
// struct literal with a constant string Name, a New func() *cli.App and a Main field.
func registrationOf(info *types.Info, lit *ast.CompositeLit, t types.Type) (Registration, bool) {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || field(st, "Main") == nil {
		return Registration{}, false
	}
	newField := field(st, "New")
	if newField == nil {
		return Registration{}, false
	}
	sig, ok := newField.Type().Underlying().(*types.Signature)
	if !ok || sig.Results().Len() != 1 || !IsCLI(sig.Results().At(0).Type(), "App") {
		return Registration{}, false
	}
	r := Registration{Pos: lit.Pos()}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		k, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		switch k.Name {
		case "Name":
			if tv, ok := info.Types[kv.Value]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
				r.Name = constant.StringVal(tv.Value)
			}
		case "New", "Main":
			r.seeds = append(r.seeds, kv.Value)
		}
	}
	return r, r.Name != ""
}

func field(st *types.Struct, name string) *types.Var {
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return st.Field(i)
		}
	}
	return nil
}

// IsCLI reports whether t is urfave/cli's type name, or a pointer to it.
func IsCLI(t types.Type, name string) bool { return isNamed(t, CLIPath, name) }

// within reports whether pos lies inside one of nodes.
func within(nodes []ast.Node, pos token.Pos) bool {
	if !pos.IsValid() {
		return false
	}
	for _, n := range nodes {
		if n.Pos() <= pos && pos < n.End() {
			return true
		}
	}
	return false
}
