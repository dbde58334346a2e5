package native

import (
	"bytes"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Plain is what a native handler that reimplements a plain command (the `plain` output
// convention) writes: the command's stdout and stderr, then its exit code. Exit maps
// them as the legacy lanes map the program's run (tool.Plain), so parity compares the
// handler's streams and exit code with the program's byte for byte:
//
//	p := native.Plain{Name: "notes:list"}
//	fmt.Fprintln(&p.Stdout, "alpha")
//	return p.Exit(0)
type Plain struct {
	// Name is what a failure's message calls the command (the tool's name).
	Name   string
	Stdout bytes.Buffer
	Stderr bytes.Buffer
}

// Exit ends the run with code: success with the streams (or the parsed JSON document the
// stdout holds) for 0, COMMAND_FAILED with the streams as details otherwise.
func (p *Plain) Exit(code int) tool.Output {
	return tool.Plain(p.Name, p.Stdout.Bytes(), p.Stderr.Bytes(), code)
}
