// Package scaffold generates the starting point of a command's migration to the native
// lane: `cmdbridge scaffold COMMAND` writes
//
//   - nativetools/<domain>/<stem>.go: an exported Input struct (<Tool>Input) with one
//     field per adapter schema property, in schema order, json names equal to the
//     properties, the usage as jsonschema tag and omitempty on optional fields; an
//     AdjustSchema method (native.SchemaAdjuster) setting the keywords a tag cannot
//     carry (defaults, enums, minimum, minItems…) and writing the command's rules between
//     properties with tool.ApplyConstraints (adapter.Constraints); the registration
//     (native.New) into the registry `--registry` (Config.Registry of this package) names
//     with the adapter spec's description, annotations, effects and path inputs; and a
//     handler skeleton returning NOT_IMPLEMENTED, which for a plain command shows how
//     native.Plain answers with the command's streams and exit code;
//   - nativetools/<domain>/<stem>_test.go: schema equality with adapter.Schema (of the
//     command looked up in the *legacy.Registry its registration reaches, or, when no
//     importable registry holds it, of the schema as scaffolded), decode of a full input
//     computed at generation time, and the NOT_IMPLEMENTED assertion the maintainer
//     deletes;
//   - testdata/script/parity/<stem>.txtar, seeded from the command's own golden script
//     (Config.Scripts/*/<stem>.txtar): same archive and setup, each `exec PROGRAM TOOL
//     args` (for a tree leaf `exec PROGRAM path... args`) turned into `parity TOOL
//     'json'`; without one, a call setting the required inputs on an empty workspace;
//   - nativetools/<domain>/doc.go for a new domain package, and nativetools/all/all.go
//     regenerated to blank-import every domain package;
//   - nativetools/registry.go, in an adopter's module whose discovered packages declare
//     no *native.Registry: `var Registry = native.NewRegistry()`, the registry the tools
//     register into, with the lines that serve it (host.Config.Native and the two
//     imports) on Config.Log. It is never rewritten.
//
// <domain> is the command's legacy.Command.Domain (tool.Domain(name), the part before
// ':', when the registration declares none) and <stem> is tool.Stem(name), the name with
// ':' and '-' as '_' (wu:status → nativetools/wu/wu_status.go): the path pattern every
// piece of a corpus tool follows (docs/architecture.md). Type and handler names use the
// part of the name after ':'; when two commands of a domain share that part, the one
// whose prefix is not the domain keeps its prefix (plan:create → PlanCreateInput next to
// initiative:create's CreateInput).
//
// Commands are looked up in Config.Commands (the registry's runtime view) and found in
// source by discovery with golang.org/x/tools/go/packages (syntax and types): first the
// packages their constructors are declared in, then "./..." of Config.Dir (or the
// Config.Patterns given). A registration is any legacy.Command literal with a constant
// Name, whatever receives it (commands.Register, r.Add, a local helper, a table), or
// for a command-tree leaf the (*legacy.Registry).AddApp or legacy.FromApp call and the
// cli.Command literal named like the leaf whose enclosing literals match its path. A
// command not found in source is scaffolded from the runtime view alone, and Config.Log
// and the file header say so. The flag table is always read from the pristine app the
// command's New builds, through adapter.Spec, so the generated Input reproduces the one
// flag-to-schema mapping the adapter, the argv builder and the kernel use; code is
// written with github.com/dave/jennifer with every import name given explicitly.
//
// Invariants:
//
//   - The generated Input's inferred schema equals adapter.Schema byte for byte; a
//     schema keyword the generator cannot reproduce is an error, never a silent
//     difference (a test checks every corpus command).
//   - Nothing is written unless every file can be: without force an existing file is
//     never overwritten, and the error lists all of them. all.go is maintained, so it is
//     rewritten whenever its import list changes.
//   - The scaffold never edits routes (the route table stays adapter) and never touches
//     the legacy command.
//   - Generated files hold no corpus data: they import the toolkit, testify and the
//     adopter's own registries only; the corpus registry is the default target in the
//     cmdbridge module alone.
package scaffold
