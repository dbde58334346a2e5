package cli

import (
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// intersperse moves the positional arguments of the subcommand args name after its flags,
// so that `call NAME --input JSON` parses like `call --input JSON NAME` (urfave/cli v2 stops
// parsing flags at the first positional). Tokens after "--" stay where they are.
func intersperse(app *ucli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	i := 1
	// Global flags, then the command path (command, subcommand…).
	i = copyFlags(app.Flags, args, i, &out)
	cmds := app.Commands
	var flags []ucli.Flag
	for i < len(args) {
		cmd := findCommand(cmds, args[i])
		if cmd == nil {
			break
		}
		out = append(out, args[i])
		i++
		flags, cmds = cmd.Flags, cmd.Subcommands
		if len(cmds) == 0 {
			break
		}
	}
	if flags == nil {
		return append(out, args[i:]...)
	}
	var positional []string
	for i < len(args) {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			out = append(out, a)
			if takesValue(flags, a) && i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
		} else {
			positional = append(positional, a)
		}
		i++
	}
	return append(out, positional...)
}

// copyFlags copies the leading flags (and their values) of args from i on.
func copyFlags(flags []ucli.Flag, args []string, i int, out *[]string) int {
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "--" {
		*out = append(*out, args[i])
		if takesValue(flags, args[i]) && i+1 < len(args) {
			*out = append(*out, args[i+1])
			i++
		}
		i++
	}
	return i
}

func findCommand(cmds []*ucli.Command, name string) *ucli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// takesValue reports whether the flag token a (-x, --name) needs the next token as its
// value: a known non-boolean flag written without "=value".
func takesValue(flags []ucli.Flag, a string) bool {
	if strings.Contains(a, "=") {
		return false
	}
	name := strings.TrimLeft(a, "-")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			_, isBool := f.(*ucli.BoolFlag)
			return !isBool
		}
	}
	return false
}
