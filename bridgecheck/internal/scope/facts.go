package scope

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Reaching computes a function fact for the package of pass: for every function and
// method declared in checked code, what its body reaches ("" for nothing), in source
// order so that the answer never depends on map order. reach names what one object used
// in a body reaches by itself (an exiting function, a process global, a function of
// another package with the fact); a use of one of the package's own functions passes on
// what that one reaches, to a fixed point. The caller exports the facts.
func Reaching(pass *analysis.Pass, sc *Scope, insp *inspector.Inspector, reach func(obj types.Object) string) (order []*types.Func, via map[*types.Func]string) {
	via = map[*types.Func]string{}
	local := map[*types.Func][]*types.Func{} // function → the package's functions it refers to
	for cur := range insp.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok || fd.Body == nil || !sc.Checked(fd.Pos()) {
			continue
		}
		order = append(order, fn)
		body, _ := cur.FindNode(fd.Body)
		for idc := range body.Preorder((*ast.Ident)(nil)) {
			if via[fn] != "" {
				break
			}
			obj := pass.TypesInfo.Uses[idc.Node().(*ast.Ident)]
			if f, ok := obj.(*types.Func); ok {
				f = f.Origin()
				if f.Pkg() == pass.Pkg {
					local[fn] = append(local[fn], f)
					continue
				}
				obj = f
			}
			if obj != nil {
				via[fn] = reach(obj)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range order {
			if via[fn] != "" {
				continue
			}
			for _, c := range local[fn] {
				if via[c] != "" {
					via[fn], changed = via[c], true
					break
				}
			}
		}
	}
	return order, via
}
