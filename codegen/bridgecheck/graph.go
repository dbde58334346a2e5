package bridgecheck

import (
	"go/ast"
	"go/types"
)

// refGraph maps the package's top-level declarations to the declarations their code
// references. It is what "the code a command owns" means: a reference, not a call
// graph, so a function passed as a value (Spec{Action: run}) counts as reached.
type refGraph struct {
	info *types.Info
	pkg  *types.Package
	// decl is the declaration node of each package-level function, method and variable.
	decl map[types.Object]ast.Node
	// methods are the method declarations of each named type of the package: a type
	// that is reached may have any of them called through an interface.
	methods map[*types.TypeName][]ast.Node
	// exported are the exported functions and the methods of exported types.
	exported []ast.Node
}

func (c *scan) graph() *refGraph {
	g := &refGraph{
		info: c.pass.TypesInfo, pkg: c.pass.Pkg,
		decl: map[types.Object]ast.Node{}, methods: map[*types.TypeName][]ast.Node{},
	}
	for _, f := range c.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				obj, ok := g.info.Defs[d.Name].(*types.Func)
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
							if obj := g.info.Defs[name]; obj != nil {
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
		ast.Inspect(n, func(m ast.Node) bool {
			id, ok := m.(*ast.Ident)
			if !ok {
				return true
			}
			obj := g.info.Uses[id]
			if obj == nil || obj.Pkg() != g.pkg {
				return true
			}
			switch o := obj.(type) {
			case *types.Func:
				obj = o.Origin()
			case *types.Var:
				obj = o.Origin()
			case *types.TypeName:
				work = append(work, g.methods[o]...)
				return true
			}
			if d, ok := g.decl[obj]; ok && !seen[d] {
				work = append(work, d)
			}
			return true
		})
	}
	return out
}
