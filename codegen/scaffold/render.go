package scaffold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Import paths the generated code uses, each with its explicit package name: jennifer
// never guesses an alias.
const (
	pathContext    = "context"
	pathJSON       = "encoding/json"
	pathIO         = "io"
	pathStrings    = "strings"
	pathTesting    = "testing"
	pathJSONSchema = "github.com/google/jsonschema-go/jsonschema"
	pathNative     = "github.com/cmdbridge/cmdbridge/tool/native"
	pathTool       = "github.com/cmdbridge/cmdbridge/tool"
	pathAdapter    = "github.com/cmdbridge/cmdbridge/adapter"
	pathAssert     = "github.com/stretchr/testify/assert"
	pathRequire    = "github.com/stretchr/testify/require"
)

var importNames = map[string]string{
	pathContext: "context", pathJSON: "json", pathIO: "io", pathStrings: "strings",
	pathTesting: "testing", pathJSONSchema: "jsonschema", pathNative: "native",
	pathTool: "tool", pathAdapter: "adapter", pathAssert: "assert", pathRequire: "require",
}

// newFile starts a file, naming every import it may use, the given registries'
// packages included.
func newFile(pkgPath, pkgName string, quals ...Qual) *jen.File {
	f := jen.NewFilePathName(pkgPath, pkgName)
	f.ImportNames(importNames)
	for _, q := range quals {
		if q.Path != "" {
			f.ImportName(q.Path, q.Pkg)
		}
	}
	return f
}

// render renders f and groups its imports the project's way: standard library,
// third-party, then the packages of the module local (the generated code's own), each
// group separated by a blank line (jennifer writes one sorted block).
func render(f *jen.File, local string) ([]byte, error) {
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		return nil, err
	}
	src := b.String()
	start := strings.Index(src, "\nimport (\n")
	if start < 0 {
		return b.Bytes(), nil
	}
	body := start + len("\nimport (\n")
	end := strings.Index(src[body:], "\n)\n")
	if end < 0 {
		return b.Bytes(), nil
	}
	var groups [3][]string
	for _, line := range strings.Split(src[body:body+end], "\n") {
		path := line[strings.Index(line, `"`)+1:]
		switch first, _, _ := strings.Cut(path, "/"); {
		case strings.HasPrefix(path, local+"/") || strings.HasPrefix(path, local+`"`):
			groups[2] = append(groups[2], line)
		case !strings.Contains(first, "."):
			groups[0] = append(groups[0], line)
		default:
			groups[1] = append(groups[1], line)
		}
	}
	var blocks []string
	for _, g := range groups {
		if len(g) > 0 {
			blocks = append(blocks, strings.Join(g, "\n"))
		}
	}
	out := src[:body] + strings.Join(blocks, "\n\n") + src[body+end:]
	formatted, err := format.Source([]byte(out))
	if err != nil {
		return nil, fmt.Errorf("format generated code: %w", err)
	}
	return formatted, nil
}

// toolFile renders nativetools/<pkg>/<base>.go: Input struct, AdjustSchema when needed,
// registration, handler skeleton.
func toolFile(t Tool, pkgPath, source string) ([]byte, error) {
	f := newFile(pkgPath, t.Package, t.Native.Register)
	switch {
	case t.Loc.Runtime:
		f.HeaderComment(fmt.Sprintf("Scaffolded by `cmdbridge scaffold %s` from the command registry's runtime view:", t.Spec.Name))
		f.HeaderComment("its registration was not found in source.")
	case t.Loc.Leaf != "":
		f.HeaderComment(fmt.Sprintf("Scaffolded by `cmdbridge scaffold %s` from `%s %s`, a leaf of %s's tree (%s).",
			t.Spec.Name, t.Command.Program, t.Loc.Leaf, orUnknown(t.Loc.Constructor), source))
	default:
		f.HeaderComment(fmt.Sprintf("Scaffolded by `cmdbridge scaffold %s` from %s (%s).", t.Spec.Name, orUnknown(t.Loc.Constructor), source))
	}
	f.HeaderComment("The Input struct reproduces the adapter's input schema; write the handler, then delete the")
	f.HeaderComment("NOT_IMPLEMENTED test and route the tool native once its parity script passes.")

	f.Commentf("%s is %s's input: one field per adapter schema property, in the same order.", t.TypeName, t.Spec.Name)
	f.Type().Id(t.TypeName).StructFunc(func(g *jen.Group) {
		for _, fl := range t.Fields {
			tags := map[string]string{"json": fl.Prop}
			if !fl.Required {
				tags["json"] += ",omitempty"
			}
			if fl.Tag != "" {
				tags["jsonschema"] = fl.Tag
			}
			g.Id(fl.Name).Add(goTypeCode(fl.GoType)).Tag(tags)
		}
	})

	var adjust []jen.Code
	for _, fl := range t.Fields {
		for _, k := range fl.Adjust {
			v, err := keywordValue(k)
			if err != nil {
				return nil, fmt.Errorf("%s: property %s: %w", t.Spec.Name, fl.Prop, err)
			}
			target := jen.Id("s").Dot("Properties").Index(jen.Lit(fl.Prop))
			for _, part := range strings.Split(k.Path, ".") {
				target = target.Dot(part)
			}
			adjust = append(adjust, target.Op("=").Add(v))
		}
	}
	if len(t.Constraints) > 0 {
		cs := make([]jen.Code, 0, len(t.Constraints)+1)
		cs = append(cs, jen.Id("s"))
		for _, c := range t.Constraints {
			cs = append(cs, constraintLiteral(c))
		}
		adjust = append(adjust, jen.If(jen.Err().Op(":=").Qual(pathTool, "ApplyConstraints").Call(cs...), jen.Err().Op("!=").Nil()).Block(
			jen.Panic(jen.Err())))
	}
	if len(adjust) > 0 {
		f.Line()
		f.Comment("AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the")
		f.Comment("schema native.New infers equals the adapter's.")
		f.Func().Params(jen.Id(t.TypeName)).Id("AdjustSchema").Params(jen.Id("s").Op("*").Qual(pathJSONSchema, "Schema")).Block(adjust...)
	}

	f.Line()
	tl := jen.Qual(pathNative, "New").Call(specLiteral(t), jen.Id(t.Handler))
	reg := jen.Qual(t.Native.Register.Path, t.Native.Register.Name).Call(tl)
	if t.Native.IsVar {
		reg = jen.If(jen.Err().Op(":=").Qual(t.Native.Register.Path, t.Native.Register.Name).Dot("Add").Call(tl),
			jen.Err().Op("!=").Nil()).Block(jen.Panic(jen.Err()))
	}
	f.Func().Id("init").Params().Block(reg)

	f.Line()
	f.Commentf("%s serves %s natively. Until it is written the tool answers NOT_IMPLEMENTED, so", t.Handler, t.Spec.Name)
	f.Comment("parity reports it in progress (exit 1 unless --allow-in-progress) and its route stays adapter.")
	var body []jen.Code
	if t.Command.Output == legacy.OutputPlain {
		// A plain command answers with what it prints and its exit code: say how.
		run := t.Spec.Name
		if t.Loc.Leaf != "" && t.Command.Program != "" {
			run = t.Command.Program + " " + t.Loc.Leaf
		}
		body = append(body,
			jen.Comment(fmt.Sprintf("%s is a plain command: its answer is what `%s` prints and its exit", t.Spec.Name, run)),
			jen.Comment("code. Write them with native.Plain, which parity compares with the program's byte for byte:"),
			jen.Comment(""),
			jen.Comment(fmt.Sprintf("\tp := native.Plain{Name: %q}", t.Spec.Name)),
			jen.Comment("\tfmt.Fprintln(&p.Stdout, …) // and p.Stderr: what the program writes"),
			jen.Comment("\treturn p.Exit(0)           // its exit code"))
	}
	body = append(body, jen.Return(jen.Qual(pathTool, "Fail").Call(jen.Qual(pathTool, "CodeNotImplemented"),
		jen.Lit(t.Spec.Name+": the native handler is not written yet"))))
	f.Func().Id(t.Handler).Params(
		jen.Id("ctx").Qual(pathContext, "Context"),
		jen.Id("env").Op("*").Qual(pathTool, "Env"),
		jen.Id("in").Id(t.TypeName),
	).Qual(pathTool, "Output").Block(body...)
	return render(f, t.Local)
}

func orUnknown(s string) string {
	if s == "" {
		return "an unnamed constructor"
	}
	return s
}

func goTypeCode(t string) jen.Code {
	if elem, ok := strings.CutPrefix(t, "[]"); ok {
		return jen.Index().Id(elem)
	}
	return jen.Id(t)
}

// specLiteral is the tool.Spec the registration passes: the adapter spec minus the
// schema (inferred from the struct) and the default timeouts (filled in by New).
func specLiteral(t Tool) jen.Code {
	s := t.Spec
	kv := func(key string, v jen.Code) jen.Code { return jen.Line().Id(key).Op(":").Add(v) }
	items := []jen.Code{kv("Name", jen.Lit(s.Name))}
	if s.Domain != tool.Domain(s.Name) {
		// An undeclared domain is the name's prefix (native.Registry.Add fills it in).
		items = append(items, kv("Domain", jen.Lit(s.Domain)))
	}
	items = append(items, kv("Description", jen.Lit(s.Description)))
	var ann []jen.Code
	a := s.Annotations
	if a.Title != "" {
		ann = append(ann, jen.Id("Title").Op(":").Lit(a.Title))
	}
	for _, h := range []struct {
		name string
		on   bool
	}{{"ReadOnlyHint", a.ReadOnlyHint}, {"DestructiveHint", a.DestructiveHint},
		{"IdempotentHint", a.IdempotentHint}, {"OpenWorldHint", a.OpenWorldHint}, {"RunsCodeHint", a.RunsCodeHint}} {
		if h.on {
			ann = append(ann, jen.Id(h.name).Op(":").True())
		}
	}
	if len(ann) > 0 {
		items = append(items, kv("Annotations", jen.Qual(pathTool, "Annotations").Values(ann...)))
	}
	if len(s.Effects) > 0 {
		items = append(items, kv("Effects", jen.Index().Qual(pathTool, "Effect").Values(effectsCode(s.Effects)...)))
	}
	if len(s.Paths) > 0 {
		var ps []jen.Code
		for _, p := range s.Paths {
			access := jen.Qual(pathTool, "Read")
			if p.Access == "write" {
				access = jen.Qual(pathTool, "Write")
			}
			ps = append(ps, jen.Values(jen.Id("Property").Op(":").Lit(p.Property), jen.Id("Access").Op(":").Add(access)))
		}
		items = append(items, kv("Paths", jen.Index().Qual(pathTool, "PathInput").Values(ps...)))
	}
	if s.Network {
		items = append(items, kv("Network", jen.True()))
	}
	if s.ParallelSafe {
		items = append(items, kv("ParallelSafe", jen.True()))
	}
	if len(s.RequiredApprovals) > 0 {
		var rs []jen.Code
		for _, r := range s.RequiredApprovals {
			rs = append(rs, jen.Lit(r))
		}
		items = append(items, kv("RequiredApprovals", jen.Index().String().Values(rs...)))
	}
	return jen.Qual(pathTool, "Spec").Values(append(items, jen.Line())...)
}

// effectsCode is the command's effects as tool.Effect values, so the native tool
// declares the same harmless modes as its command: tool.ReadOnlyWhen or tool.WritesWhen
// of tool.IsSet, IsUnset or IsEqual conditions (a literal for a destructive effect).
func effectsCode(effects []tool.Effect) []jen.Code {
	var out []jen.Code
	for _, e := range effects {
		var when []jen.Code
		for _, c := range e.When {
			switch c.Is {
			case tool.Equals:
				when = append(when, jen.Qual(pathTool, "IsEqual").Call(jen.Lit(c.Property), jen.Lit(c.Value)))
			case tool.Set:
				when = append(when, jen.Qual(pathTool, "IsSet").Call(jen.Lit(c.Property)))
			default:
				when = append(when, jen.Qual(pathTool, "IsUnset").Call(jen.Lit(c.Property)))
			}
		}
		switch {
		case e.Destructive:
			out = append(out, jen.Values(jen.Dict{
				jen.Id("When"):        jen.Index().Qual(pathTool, "Condition").Values(when...),
				jen.Id("Destructive"): jen.True(),
			}))
		case e.ReadOnly:
			out = append(out, jen.Qual(pathTool, "ReadOnlyWhen").Call(when...))
		default:
			out = append(out, jen.Qual(pathTool, "WritesWhen").Call(when...))
		}
	}
	return out
}

// keywordValue is the Go expression assigning a keyword's JSON value to its
// jsonschema.Schema field.
func keywordValue(k Keyword) (jen.Code, error) {
	field := k.Path[strings.LastIndex(k.Path, ".")+1:]
	switch field {
	case "Default":
		s := string(k.Value)
		if !strings.Contains(s, "`") {
			return jen.Qual(pathJSON, "RawMessage").Call(jen.Id("`" + s + "`")), nil
		}
		return jen.Qual(pathJSON, "RawMessage").Call(jen.Lit(s)), nil
	case "Enum":
		var vs []any
		if err := json.Unmarshal(k.Value, &vs); err != nil {
			return nil, fmt.Errorf("enum: %w", err)
		}
		var items []jen.Code
		for _, v := range vs {
			switch v.(type) {
			case string, float64, bool:
				items = append(items, jen.Lit(v))
			default:
				return nil, fmt.Errorf("enum value %v of type %T", v, v)
			}
		}
		return jen.Index().Any().Values(items...), nil
	case "Minimum", "Maximum", "ExclusiveMinimum", "ExclusiveMaximum":
		var v float64
		if err := json.Unmarshal(k.Value, &v); err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		return jen.Qual(pathJSONSchema, "Ptr").Call(jen.Lit(v)), nil
	case "MinItems", "MaxItems", "MinLength", "MaxLength":
		var v int
		if err := json.Unmarshal(k.Value, &v); err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		return jen.Qual(pathJSONSchema, "Ptr").Call(jen.Lit(v)), nil
	case "Pattern", "Format", "Description":
		var v string
		if err := json.Unmarshal(k.Value, &v); err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		return jen.Lit(v), nil
	}
	return nil, fmt.Errorf("keyword %s has no Go form", k.Path)
}

// testFile renders nativetools/<pkg>/<base>_test.go (package <pkg>_test). The full
// input is computed now from the adapter schema, so the test imports nothing but the
// toolkit, testify and the adopter's own registries.
func testFile(t Tool, pkgPath string) ([]byte, error) {
	f := newFile(pkgPath+"_test", t.Package+"_test", t.Native.Lookup, t.Legacy)
	f.ImportName(pkgPath, t.Package)
	if t.Legacy != (Qual{}) && t.Loc.PkgPath != "" && t.Loc.PkgPath != t.Legacy.Path && t.Loc.PkgPath != pkgPath {
		f.Anon(t.Loc.PkgPath) // registers the command
	}
	f.HeaderComment(fmt.Sprintf("Scaffolded by `cmdbridge scaffold %s`: the native tool's contract with its legacy command.", t.Spec.Name))
	sample, err := inputJSON(sampleInput(t.Spec.InputSchema))
	if err != nil {
		return nil, err
	}
	prefix := strings.TrimSuffix(t.TypeName, "Input")
	name := jen.Lit(t.Spec.Name)
	lookup := func(g *jen.Group) {
		g.List(jen.Id("nt"), jen.Id("ok")).Op(":=").Qual(t.Native.Lookup.Path, t.Native.Lookup.Name).Dot("Lookup").Call(name)
		g.Qual(pathRequire, "True").Call(jen.Id("t"), jen.Id("ok"), jen.Lit("native tool not registered"))
	}
	fullInput := func(g *jen.Group) {
		g.Id("raw").Op(":=").Index().Byte().Call(rawString(sample))
	}
	tParam := jen.Id("t").Op("*").Qual(pathTesting, "T")

	if t.Legacy != (Qual{}) {
		f.Commentf("Test%sSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.", prefix)
	} else {
		f.Commentf("Test%sSchemaEqualsAdapter: the native input schema is the adapter's as it was when", prefix)
		f.Comment("scaffolded (no registry this test can import holds the command; rescaffold when its flags change).")
	}
	f.Func().Id("Test" + prefix + "SchemaEqualsAdapter").Params(tParam).BlockFunc(func(g *jen.Group) {
		if t.Legacy != (Qual{}) {
			g.List(jen.Id("c"), jen.Id("ok")).Op(":=").Qual(t.Legacy.Path, t.Legacy.Name).Dot("Lookup").Call(name)
			g.Qual(pathRequire, "True").Call(jen.Id("t"), jen.Id("ok"), jen.Lit("legacy command not registered"))
			g.List(jen.Id("want"), jen.Err()).Op(":=").Qual(pathAdapter, "Schema").Call(jen.Id("c"))
			g.Qual(pathRequire, "NoError").Call(jen.Id("t"), jen.Err())
			g.List(jen.Id("wantJSON"), jen.Err()).Op(":=").Qual(pathJSON, "Marshal").Call(jen.Id("want"))
			g.Qual(pathRequire, "NoError").Call(jen.Id("t"), jen.Err())
		} else {
			raw, err := json.Marshal(t.Spec.InputSchema)
			if err != nil {
				g.Panic(jen.Lit(err.Error())) // unreachable: the adapter built the schema from JSON values
				return
			}
			g.Id("wantJSON").Op(":=").Index().Byte().Call(rawString(string(raw)))
		}
		lookup(g)
		g.List(jen.Id("gotJSON"), jen.Err()).Op(":=").Qual(pathJSON, "Marshal").Call(jen.Id("nt").Dot("Spec").Dot("InputSchema"))
		g.Qual(pathRequire, "NoError").Call(jen.Id("t"), jen.Err())
		g.Qual(pathAssert, "Equal").Call(jen.Id("t"), jen.String().Call(jen.Id("wantJSON")), jen.String().Call(jen.Id("gotJSON")))
	})
	f.Line()
	f.Commentf("Test%sDecodesFullInput: every property decodes into %s and survives the round trip.", prefix, t.TypeName)
	f.Func().Id("Test" + prefix + "DecodesFullInput").Params(tParam).BlockFunc(func(g *jen.Group) {
		lookup(g)
		fullInput(g)
		g.List(jen.Id("v"), jen.Err()).Op(":=").Id("nt").Dot("Decode").Call(jen.Id("raw"))
		g.Qual(pathRequire, "NoError").Call(jen.Id("t"), jen.Err())
		g.List(jen.Id("in"), jen.Id("ok")).Op(":=").Id("v").Assert(jen.Qual(pkgPath, t.TypeName))
		g.Qual(pathRequire, "True").Call(jen.Id("t"), jen.Id("ok"), jen.Lit("decoded %T"), jen.Id("v"))
		g.List(jen.Id("back"), jen.Err()).Op(":=").Qual(pathJSON, "Marshal").Call(jen.Id("in"))
		g.Qual(pathRequire, "NoError").Call(jen.Id("t"), jen.Err())
		g.Qual(pathAssert, "JSONEq").Call(jen.Id("t"), jen.String().Call(jen.Id("raw")), jen.String().Call(jen.Id("back")))
	})
	f.Line()
	f.Commentf("Test%sNotImplemented pins the scaffold's skeleton handler.", prefix)
	f.Comment("DELETE THIS TEST when you write the handler: it is the one assertion that must stop holding.")
	f.Func().Id("Test" + prefix + "NotImplemented").Params(tParam).BlockFunc(func(g *jen.Group) {
		lookup(g)
		fullInput(g)
		g.Id("env").Op(":=").Op("&").Qual(pathTool, "Env").Values(jen.Dict{
			jen.Id("Dir"):   jen.Id("t").Dot("TempDir").Call(),
			jen.Id("Stdin"): jen.Qual(pathStrings, "NewReader").Call(jen.Lit("")),
			jen.Id("Log"):   jen.Qual(pathIO, "Discard"),
		})
		g.Id("out").Op(":=").Id("nt").Dot("Call").Call(jen.Qual(pathContext, "Background").Call(), jen.Id("env"), jen.Id("raw"))
		g.Qual(pathRequire, "NotNil").Call(jen.Id("t"), jen.Id("out").Dot("Error"))
		g.Qual(pathAssert, "Equal").Call(jen.Id("t"), jen.Qual(pathTool, "CodeNotImplemented"), jen.Id("out").Dot("Error").Dot("Code"))
	})
	return render(f, t.Local)
}

// rawString is s as a raw string literal when it can be one (readable JSON), else as
// an interpreted one.
func rawString(s string) jen.Code {
	if !strings.Contains(s, "`") && !strings.Contains(s, "\r") {
		return jen.Id("`" + s + "`")
	}
	return jen.Lit(s)
}

// sampleInput is an input setting every property of s to a non-zero value of its type
// (the first enum value, an integer at least the minimum, one-item arrays), for the
// generated decode test.
func sampleInput(s *jsonschema.Schema) map[string]any {
	out := map[string]any{}
	for name, p := range s.Properties {
		out[name] = sampleValue(name, p)
	}
	return out
}

func sampleValue(name string, s *jsonschema.Schema) any {
	if s == nil {
		return "x-" + name
	}
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	switch s.Type {
	case "boolean":
		return true
	case "integer":
		v := 7.0
		if s.Minimum != nil && *s.Minimum > v {
			v = *s.Minimum
		}
		return int64(v)
	case "number":
		return 7.5
	case "array":
		return []any{sampleValue(name, s.Items)}
	case "object":
		return sampleInput(s)
	}
	return "x-" + name
}

// docFile renders the doc.go of a domain package the scaffold creates.
func docFile(t Tool, pkgPath string) ([]byte, error) {
	f := newFile(pkgPath, t.Package)
	f.PackageComment(fmt.Sprintf("Package %s holds the native implementations of the %s domain's tools, one file per", t.Package, t.Command.Domain))
	f.PackageComment("tool in the same order: Input struct, registration, handler. Each registers into")
	f.PackageComment(t.Native.Register.Short() + " from init.")
	f.PackageComment("")
	f.PackageComment("Invariants: an Input's schema equals the legacy command's adapter schema (each tool's test")
	f.PackageComment("checks it); handlers reach the world only through their *tool.Env and never touch")
	f.PackageComment("process globals.")
	return render(f, t.Local)
}

// registryFile renders nativetools/registry.go: the *native.Registry a module without
// one gets, which the scaffolded tools register into and host.Config.Native serves.
func registryFile(reg Qual, local string) ([]byte, error) {
	f := newFile(reg.Path, reg.Pkg)
	f.HeaderComment("Written by `cmdbridge scaffold`, which found no *native.Registry in this module. It is yours:")
	f.HeaderComment("scaffold never rewrites it.")
	f.PackageComment("Package nativetools holds the commands migrated to native Go: one folder per domain, each")
	f.PackageComment("tool registering into " + reg.Name + " from init, and all/ importing every domain.")
	f.Comment(reg.Name + " is where the migrated tools register; serve it with")
	f.Comment("host.Config{Native: " + reg.Short() + "} and a blank import of its all package.")
	f.Var().Id(reg.Name).Op("=").Qual(pathNative, "NewRegistry").Call()
	return render(f, local)
}

// allFile renders nativetools/all/all.go blank-importing every domain package.
func allFile(pkgPath string, domains []string, tg target, local string) ([]byte, error) {
	f := newFile(pkgPath, "all")
	f.HeaderComment("Code generated by cmdbridge scaffold. DO NOT EDIT.")
	f.PackageComment("Package all registers every native tool domain in " + tg.Lookup.Short() + " by importing it.")
	sorted := append([]string(nil), domains...)
	sort.Strings(sorted)
	f.Anon(sorted...)
	return render(f, local)
}

// constraintLiteral is a tool.Constraint as Go source.
func constraintLiteral(c tool.Constraint) jen.Code {
	kinds := map[tool.ConstraintKind]string{tool.Required: "Required", tool.AnyOf: "AnyOf",
		tool.Exclusive: "Exclusive", tool.Requires: "Requires", tool.Together: "Together"}
	props := make([]jen.Code, len(c.Properties))
	for i, p := range c.Properties {
		props[i] = jen.Lit(p)
	}
	fields := []jen.Code{jen.Id("Kind").Op(":").Qual(pathTool, kinds[c.Kind]),
		jen.Id("Properties").Op(":").Index().String().Values(props...)}
	if len(c.Values) > 0 {
		vals := make([]jen.Code, len(c.Values))
		for i, v := range c.Values {
			vals[i] = jen.Lit(v)
		}
		fields = append(fields, jen.Id("Values").Op(":").Index().Any().Values(vals...))
	}
	return jen.Qual(pathTool, "Constraint").Values(fields...)
}
