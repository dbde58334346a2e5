package bridgecheck

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
)

// Doc is the analyzer's documentation, shown by `bridgecheck -help`.
const Doc = `report code that is unsafe to run in-process under the cmdbridge adapter

In legacy command packages (-legacy, import path patterns) bridgecheck reports os.Exit,
log.Fatal*, log.Panic*, urfave/cli's Show*AndExit, package-level *cli.App, cli.Flag and
[]cli.Flag values, package-level values bound to os.Stdout/os.Stderr (loggers, writers),
go statements in code reachable from a command's main, constructor or actions, recover(),
os.Chdir and os.Setenv/Unsetenv/Clearenv. In native tool packages (-native) it reports
every use of a process global: os.Stdout, Stderr, Stdin, Args, Exit, Getenv, LookupEnv,
Environ, ExpandEnv, Getwd, Chdir, Setenv, Unsetenv, Clearenv, and the flag and log
packages. _test.go files are never checked.

Each diagnostic starts with its rule in brackets and says why the construct is unsafe
in-process and what to write instead.`

// Default import path patterns (doublestar syntax, comma separated) for the two rule sets.
const (
	DefaultLegacy = "**/commands/*/**"
	DefaultNative = "**/nativetools/**"
)

// Analyzer is the bridgecheck pass. Its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "bridgecheck",
	Doc:        Doc,
	URL:        "https://github.com/cmdbridge/cmdbridge/blob/main/docs/adapter-safety.md",
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
}

var legacyFlag, nativeFlag string

func init() {
	Analyzer.Flags.StringVar(&legacyFlag, "legacy", DefaultLegacy,
		"comma-separated import path patterns of legacy command packages")
	Analyzer.Flags.StringVar(&nativeFlag, "native", DefaultNative,
		"comma-separated import path patterns of native tool packages")
}

// Result is what the pass found in one package.
type Result struct {
	// Legacy and Native say which rule set applied (neither: the package was skipped).
	Legacy, Native bool
	// Findings are every finding of the package, in source order.
	Findings []Finding
	// Commands are the commands registered in the package, in source order, each with
	// the findings charged to it.
	Commands []Command
}

// Finding is one reported construct.
type Finding struct {
	Rule    string
	Subject string // what was found, as written: "os.Exit", "var logger", "recover()"
	Pos     token.Pos
}

// Command is one command registration (a composite literal with a constant string Name,
// a New func() *cli.App and a Main func) and the findings charged to it: those in code
// reachable from its New and Main expressions through references within the package,
// plus the package's findings that no command reaches (init functions, shared helpers
// called in ways the references do not show).
type Command struct {
	Name     string
	Pos      token.Pos
	Findings []Finding
}

const cliPath = "github.com/urfave/cli/v2"

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

func run(pass *analysis.Pass) (any, error) {
	res := &Result{
		Legacy: matches(legacyFlag, pass.Pkg.Path()),
		Native: matches(nativeFlag, pass.Pkg.Path()),
	}
	if !res.Legacy && !res.Native || strings.HasSuffix(pass.Pkg.Path(), ".test") {
		return res, nil
	}
	var files []*ast.File
	for _, f := range pass.Files {
		// Generated files outside the package (a test main) do not end in .go.
		if name := pass.Fset.File(f.Pos()).Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			files = append(files, f)
		}
	}
	c := &scan{pass: pass, files: files, cliFlag: findCLIFlag(pass.Pkg)}
	if res.Native {
		c.native()
	}
	if res.Legacy {
		res.Commands = c.legacy()
	}
	c.sort(c.findings)
	for _, f := range c.findings {
		pass.Report(analysis.Diagnostic{Pos: f.Pos, Category: f.Rule, Message: message(f.Rule, f.Subject)})
	}
	res.Findings = c.findings
	return res, nil
}

type scan struct {
	pass     *analysis.Pass
	files    []*ast.File
	cliFlag  *types.Interface // urfave/cli's Flag, nil when the package cannot see it
	findings []Finding
}

// sort orders findings by file name, then offset: stable whatever order the files were
// loaded in.
func (c *scan) sort(fs []Finding) {
	fset := c.pass.Fset
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fset.Position(fs[i].Pos), fset.Position(fs[j].Pos)
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
}

func (c *scan) add(rule, subject string, pos token.Pos) {
	c.findings = append(c.findings, Finding{Rule: rule, Subject: subject, Pos: pos})
}

// nativeGlobals are the os identifiers a native tool must not touch.
var nativeGlobals = map[string]bool{
	"Stdout": true, "Stderr": true, "Stdin": true, "Args": true, "Exit": true,
	"Getenv": true, "LookupEnv": true, "Environ": true, "ExpandEnv": true, "Getwd": true,
	"Chdir": true, "Setenv": true, "Unsetenv": true, "Clearenv": true,
}

// native reports package-qualified uses of process globals.
func (c *scan) native() {
	for _, f := range c.files {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			path := importedPath(c.pass.TypesInfo, sel.X)
			switch {
			case path == "os" && nativeGlobals[sel.Sel.Name],
				path == "flag", path == "log":
				c.add(RuleNativeGlobal, path+"."+sel.Sel.Name, sel.Pos())
			}
			return true
		})
	}
}

// importedPath is the import path of the package x names, or "".
func importedPath(info *types.Info, x ast.Expr) string {
	id, ok := x.(*ast.Ident)
	if !ok {
		return ""
	}
	if pn, ok := info.Uses[id].(*types.PkgName); ok {
		return pn.Imported().Path()
	}
	return ""
}

// legacy reports the legacy rules and returns the package's commands with their
// findings.
func (c *scan) legacy() []Command {
	info := c.pass.TypesInfo
	var goStmts []*ast.GoStmt
	for _, f := range c.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				c.legacyCall(n)
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
					if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "recover" {
						c.add(RuleRecover, "recover()", n.Pos())
					}
				}
			case *ast.GoStmt:
				goStmts = append(goStmts, n)
			}
			return true
		})
		c.globals(f)
	}

	g := c.graph()
	regs, actionRoots := c.roots()
	// go statements count only in code a command or an action can reach.
	var seeds []ast.Node
	seeds = append(seeds, actionRoots...)
	for _, r := range regs {
		seeds = append(seeds, r.seeds...)
	}
	if len(regs) == 0 {
		// A helper package: its exported API is what commands call.
		seeds = append(seeds, g.exported...)
	}
	reach := g.closure(seeds)
	for _, s := range goStmts {
		if within(reach, s.Pos()) {
			c.add(RuleGoInAction, "go statement", s.Pos())
		}
	}

	owned := make([][]ast.Node, len(regs))
	for i, r := range regs {
		owned[i] = g.closure(r.seeds)
	}
	var shared []Finding
	charged := make([][]Finding, len(regs))
	for _, f := range c.findings {
		hit := false
		for i := range regs {
			if within(owned[i], f.Pos) {
				charged[i] = append(charged[i], f)
				hit = true
			}
		}
		if !hit {
			shared = append(shared, f)
		}
	}
	cmds := make([]Command, len(regs))
	for i, r := range regs {
		fs := append(charged[i], shared...)
		c.sort(fs)
		cmds[i] = Command{Name: r.name, Pos: r.pos, Findings: fs}
	}
	return cmds
}

// legacyCall reports references to the exiting, panicking and process-changing
// functions.
func (c *scan) legacyCall(sel *ast.SelectorExpr) {
	fn, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return
	}
	name := fn.Name()
	recv := fn.Signature().Recv()
	subject := fn.Pkg().Name() + "." + name
	if recv != nil {
		subject = "(" + types.TypeString(recv.Type(), shortQualifier) + ")." + name
	}
	switch fn.Pkg().Path() {
	case "os":
		switch {
		case recv == nil && name == "Exit":
			c.add(RuleOsExit, subject, sel.Pos())
		case name == "Chdir": // os.Chdir and (*os.File).Chdir
			c.add(RuleChdir, subject, sel.Pos())
		case recv == nil && (name == "Setenv" || name == "Unsetenv" || name == "Clearenv"):
			c.add(RuleSetenv, subject, sel.Pos())
		}
	case "log":
		switch {
		case strings.HasPrefix(name, "Fatal"):
			c.add(RuleLogFatal, subject, sel.Pos())
		case strings.HasPrefix(name, "Panic"):
			c.add(RuleLogPanic, subject, sel.Pos())
		}
	case cliPath:
		if recv == nil && strings.HasPrefix(name, "Show") && strings.HasSuffix(name, "AndExit") {
			c.add(RuleShowAndExit, subject, sel.Pos())
		}
	}
}

func shortQualifier(p *types.Package) string { return p.Name() }

// globals reports package-level apps, flags and values bound to the standard streams,
// including those bound in init functions.
func (c *scan) globals(f *ast.File) {
	info := c.pass.TypesInfo
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, spec := range d.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					obj := info.Defs[name]
					if obj == nil || name.Name == "_" && len(vs.Values) == 0 {
						continue
					}
					t := obj.Type()
					typ := types.TypeString(t, shortQualifier)
					switch {
					case isCLI(t, "App"):
						c.add(RuleGlobalApp, "var "+name.Name+" "+typ, name.Pos())
					case c.isFlag(t):
						c.add(RuleGlobalFlags, "var "+name.Name+" "+typ, name.Pos())
					}
					if v := valueFor(vs, i); v != nil {
						if s := streamIn(info, v); s != "" {
							c.add(RuleGlobalStream, "var "+name.Name+" (bound to "+s+")", name.Pos())
						}
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv != nil || d.Name.Name != "init" || d.Body == nil {
				continue
			}
			ast.Inspect(d.Body, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != len(as.Rhs) {
					return true
				}
				for i, lhs := range as.Lhs {
					id, ok := lhs.(*ast.Ident)
					if !ok {
						continue
					}
					v, ok := info.Uses[id].(*types.Var)
					if !ok || v.Parent() != c.pass.Pkg.Scope() {
						continue
					}
					if s := streamIn(info, as.Rhs[i]); s != "" {
						c.add(RuleGlobalStream, "var "+id.Name+" (bound to "+s+" in init)", id.Pos())
					}
				}
				return true
			})
		}
	}
}

// valueFor is the initialiser of the i-th name of vs (nil for a multi-value call).
func valueFor(vs *ast.ValueSpec, i int) ast.Expr {
	if len(vs.Values) == len(vs.Names) {
		return vs.Values[i]
	}
	if len(vs.Values) == 1 {
		return vs.Values[0]
	}
	return nil
}

// streamIn names os.Stdout or os.Stderr when e evaluates it now, that is outside any
// function literal (a closure reads the variable when it runs, which is safe).
func streamIn(info *types.Info, e ast.Expr) string {
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if v, ok := info.Uses[n.Sel].(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "os" &&
				(v.Name() == "Stdout" || v.Name() == "Stderr") {
				found = "os." + v.Name()
			}
		}
		return true
	})
	return found
}

// isCLI reports whether t is urfave/cli's type name, or a pointer to it.
func isCLI(t types.Type, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == cliPath && n.Obj().Name() == name
}

// isFlag reports whether t is a cli.Flag, a type implementing it, or a slice or array
// of those.
func (c *scan) isFlag(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return c.isFlag(u.Elem())
	case *types.Array:
		return c.isFlag(u.Elem())
	}
	if isCLI(t, "Flag") {
		return true
	}
	if c.cliFlag == nil {
		return false
	}
	if _, isIface := t.Underlying().(*types.Interface); isIface {
		return false // any, error…: not a flag by themselves
	}
	// A package-level struct value is addressable: its pointer methods count.
	return types.Implements(t, c.cliFlag) || types.Implements(types.NewPointer(t), c.cliFlag)
}

// findCLIFlag finds urfave/cli's Flag interface among pkg's imports, transitively.
func findCLIFlag(pkg *types.Package) *types.Interface {
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package) *types.Interface
	walk = func(p *types.Package) *types.Interface {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == cliPath {
			if obj := p.Scope().Lookup("Flag"); obj != nil {
				if it, ok := obj.Type().Underlying().(*types.Interface); ok {
					return it
				}
			}
			return nil
		}
		for _, imp := range p.Imports() {
			if it := walk(imp); it != nil {
				return it
			}
		}
		return nil
	}
	return walk(pkg)
}

// registration is one command registration found in the package.
type registration struct {
	name  string
	pos   token.Pos
	seeds []ast.Node // the New and Main expressions
}

// actionFields are the cli.App and cli.Command fields holding code a run executes.
var actionFields = map[string]bool{"Action": true, "Before": true, "After": true}

// roots finds the package's command registrations and the expressions assigned to
// cli.App or cli.Command Action, Before and After fields.
func (c *scan) roots() (regs []registration, actions []ast.Node) {
	info := c.pass.TypesInfo
	for _, f := range c.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				tv, ok := info.Types[n]
				if !ok {
					return true
				}
				if isCLI(tv.Type, "App") || isCLI(tv.Type, "Command") {
					for _, el := range n.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok && actionFields[k.Name] {
								actions = append(actions, kv.Value)
							}
						}
					}
					return true
				}
				if r, ok := registrationOf(info, n, tv.Type); ok {
					regs = append(regs, r)
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					sel, ok := lhs.(*ast.SelectorExpr)
					if !ok || !actionFields[sel.Sel.Name] || len(n.Rhs) != len(n.Lhs) {
						continue
					}
					if tv, ok := info.Types[sel.X]; ok && (isCLI(tv.Type, "App") || isCLI(tv.Type, "Command")) {
						actions = append(actions, n.Rhs[i])
					}
				}
			}
			return true
		})
	}
	return regs, actions
}

// registrationOf recognises a command registration by shape, whatever its package: a
// struct literal with a constant string Name, a New func() *cli.App and a Main func.
func registrationOf(info *types.Info, lit *ast.CompositeLit, t types.Type) (registration, bool) {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || !hasField(st, "Main") {
		return registration{}, false
	}
	newField := field(st, "New")
	if newField == nil {
		return registration{}, false
	}
	sig, ok := newField.Type().Underlying().(*types.Signature)
	if !ok || sig.Results().Len() != 1 || !isCLI(sig.Results().At(0).Type(), "App") {
		return registration{}, false
	}
	r := registration{pos: lit.Pos()}
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
				r.name = constant.StringVal(tv.Value)
			}
		case "New", "Main":
			r.seeds = append(r.seeds, kv.Value)
		}
	}
	return r, r.name != ""
}

func hasField(st *types.Struct, name string) bool { return field(st, name) != nil }

func field(st *types.Struct, name string) *types.Var {
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return st.Field(i)
		}
	}
	return nil
}

// within reports whether pos lies inside one of nodes.
func within(nodes []ast.Node, pos token.Pos) bool {
	for _, n := range nodes {
		if n.Pos() <= pos && pos < n.End() {
			return true
		}
	}
	return false
}
