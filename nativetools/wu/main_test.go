package wu_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/all"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/tool"
)

// childVar makes the test binary a writer process for the crash tests: its value is
// the lane ("legacy": the command's main, as the delivery binary runs it; "native": the
// native tool), childTool and childInput name the call. The child runs in its working
// directory with its whole environment, as a process of either lane would.
const (
	childVar   = "REDTEAM_CHILD"
	childTool  = "REDTEAM_TOOL"
	childInput = "REDTEAM_INPUT"
)

func TestMain(m *testing.M) {
	if lane := os.Getenv(childVar); lane != "" {
		os.Exit(runChild(lane, os.Getenv(childTool), json.RawMessage(os.Getenv(childInput))))
	}
	os.Exit(m.Run())
}

// runChild runs one call and returns the process's exit code.
func runChild(lane, name string, input json.RawMessage) int {
	ctx := context.Background()
	dir, _ := os.Getwd()
	switch lane {
	case "legacy":
		c, ok := commands.Lookup(name)
		if !ok {
			fmt.Fprintln(os.Stderr, "no command", name)
			return 3
		}
		argv, err := adapter.Argv(c, input)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		return commands.Dispatch(ctx, commands.Default, "delivery", append([]string{name}, argv...), os.Stdout, os.Stderr)
	case "native":
		tl, ok := nativetools.Default.Lookup(name)
		if !ok {
			fmt.Fprintln(os.Stderr, "no native tool", name)
			return 3
		}
		env := &tool.Env{Dir: dir, LookupEnv: os.LookupEnv, Stdin: strings.NewReader(""), Log: io.Discard}
		out := tl.Call(ctx, env, input)
		if !out.Success {
			fmt.Fprintf(os.Stderr, "%+v\n", out.Error)
			return 1
		}
		return 0
	}
	return 3
}
