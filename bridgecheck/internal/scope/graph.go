package scope

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// refGraph maps the package's code to the top-level declarations it references. It is
// what "the code a command owns" means: a reference, not a call graph, so a function
// passed as a value (Spec{Action: run}) counts as reached.
type refGraph struct {
	// refs are the identifiers of the checked files that name a function, method,
	// variable or type of the package, in position order: one inspector pass, searched
	// by range for each declaration the closure visits.
	refs []ref
	// decl is the declaration node of each package-level function, method and variable.
	decl map[types.Object]ast.Node
	// methods are the method declarations of each named type of the package: a type
	// that is reached may have any of them called through an interface.
	methods map[*types.TypeName][]ast.Node
	// exported are the exported functions and the methods of exported types.
	exported []ast.Node
}

type ref struct {
	pos token.Pos
	obj types.Object
}

func newGraph(pass *analysis.Pass, files []*ast.File, insp *inspector.Inspector, s *Scope) *refGraph {
	info := pass.TypesInfo
	g := &refGraph{decl: map[types.Object]ast.Node{}, methods: map[*types.TypeName][]ast.Node{}}
	for cur := range insp.Root().Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		obj := info.Uses[id]
		if obj == nil || obj.Pkg() != pass.Pkg || !s.Checked(id.Pos()) {
			continue
		}
		switch o := obj.(type) {
		case *types.Func:
			obj = o.Origin()
		case *types.Var:
			obj = o.Origin()
		case *types.TypeName:
		default:
			continue
		}
		g.refs = append(g.refs, ref{id.Pos(), obj})
	}
	sort.Slice(g.refs, func(i, j int) bool { return g.refs[i].pos < g.refs[j].pos })

	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				obj, ok := info.Defs[d.Name].(*types.Func)
				if !ok {
					continue
				}
				g.decl[obj] = d
				recv := obj.Signature().Recv()
				if recv == nil {
					if obj.Exported() {
						g.exported = append(g.exported, d)
					}
					continue
				}
				t := recv.Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if n, ok := t.(*types.Named); ok {
					tn := n.Obj()
					g.methods[tn] = append(g.methods[tn], d)
					if tn.Exported() && obj.Exported() {
						g.exported = append(g.exported, d)
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok {
						for _, name := range vs.Names {
							if obj := info.Defs[name]; obj != nil {
								g.decl[obj] = vs
							}
						}
					}
				}
			}
		}
	}
	return g
}

// closure returns seeds and every declaration reachable from them by references.
func (g *refGraph) closure(seeds []ast.Node) []ast.Node {
	seen := map[ast.Node]bool{}
	var out []ast.Node
	work := append([]ast.Node(nil), seeds...)
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
		i := sort.Search(len(g.refs), func(i int) bool { return g.refs[i].pos >= n.Pos() })
		for ; i < len(g.refs) && g.refs[i].pos < n.End(); i++ {
			obj := g.refs[i].obj
			if tn, ok := obj.(*types.TypeName); ok {
				work = append(work, g.methods[tn]...)
				continue
			}
			if d, ok := g.decl[obj]; ok && !seen[d] {
				work = append(work, d)
			}
		}
	}
	return out
}
