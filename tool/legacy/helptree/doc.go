// Package helptree reads the command tree of an installed urfave/cli v2 program from its
// help output, for a program whose source is out of reach (`cmdbridge wrap`).
//
// [Discover] runs `PROGRAM --help`, then, for every command a page lists, the command's
// own page: `PROGRAM PARENT… help NAME` when the parent lists urfave/cli's help command
// (it prints the page without running the command), else `PROGRAM PARENT… NAME --help`.
// [Parse] reads a page as urfave/cli v2's default templates print it: NAME, USAGE,
// VERSION, DESCRIPTION, CATEGORY, COMMANDS (names with their aliases, category
// headings) and OPTIONS / GLOBAL OPTIONS (names, placeholder, slice repetition, usage,
// "(default: …)", "[$ENV]"). [Tree.App] turns the tree into a *cli.App of stub commands
// with the same names, aliases, texts, positional usage and flags, for legacy.FromApp.
//
// Invariants:
//   - It never runs a command of the program other than to print help: the only argv it
//     writes are the two above. (The program's own Before hooks of parent commands do
//     run, as they do for any --help.)
//   - It never hangs: each run has a timeout (and a delay after which its pipes are
//     abandoned), the whole discovery a deadline, the tree a depth limit and a cap on
//     the number of commands; at most Config.Parallel runs go at once.
//   - It never guesses silently: what it could not read is a warning of the node
//     ([Tree.Warnings], by tool name), and a stub's action fails (exit status 70) if
//     anything ever runs it: a described app is served on the subprocess lane only.
//   - It caches nothing: every discovery runs the program again.
//
// Help output does not carry everything: hidden flags and commands, Required, a
// flag's exact numeric type (an Int64 and an Int print alike; a Uint's minimum, a
// Float64's zero default "0"), a slice's element type without a default, a command
// that has both subcommands and an action, a custom help template. docs/adopt.md lists
// what this means for the tools.
package helptree
