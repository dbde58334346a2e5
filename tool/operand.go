package tool

import "github.com/google/jsonschema-go/jsonschema"

// OperandPattern is the pattern of a value that a lane places on a command line as an
// operand (a positional, a git revision): empty, a lone "-" (standard input, by
// convention), or anything that does not begin with "-". A value beginning with "-"
// would be read as an option by the program it reaches (`--output=FILE` makes git diff
// write FILE), so the input schema refuses it, and the kernel answers INVALID_INPUT
// before any lane runs. The adapter gives every positional this pattern unless the
// command says the positional may begin with "-" (legacy.MetaArgLeadingDash) or lists
// its words (an enum); native tools give it to the inputs they pass on as operands
// ([Operands]).
const OperandPattern = `^(?:$|-$|[^-])`

// Operands gives the named properties of an input schema [OperandPattern] (an array's
// items, for a list), as the adapter does for a command's positionals. A name that is no
// property panics: a programming error, caught by any test that loads the tool.
func Operands(s *jsonschema.Schema, props ...string) {
	for _, prop := range props {
		p := s.Properties[prop]
		if p == nil {
			panic("tool: the input schema has no property " + prop)
		}
		if p.Type == "array" && p.Items != nil {
			p = p.Items
		}
		p.Pattern = OperandPattern
	}
}
