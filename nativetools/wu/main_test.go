package wu_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	_ "github.com/cmdbridge/cmdbridge/commands/all"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/tool"
)

// childVar makes the test binary a native writer process for the crash tests: its value
// is the lane ("native": the native tool), childTool and childInput name the call. The
// child runs in its working directory with its whole environment, as a process of the
// lane would. A legacy writer process is the delivery program itself
// (commands/commandstest), built once per run.
const (
	childVar   = "REDTEAM_CHILD"
	childTool  = "REDTEAM_TOOL"
	childInput = "REDTEAM_INPUT"
)

func TestMain(m *testing.M) {
	if lane := os.Getenv(childVar); lane != "" {
		os.Exit(runChild(lane, os.Getenv(childTool), json.RawMessage(os.Getenv(childInput))))
	}
	os.Exit(outsidetest.M(m).Run())
}

// runChild runs one call and returns the process's exit code.
func runChild(lane, name string, input json.RawMessage) int {
	if lane != "native" {
		fmt.Fprintln(os.Stderr, "no lane", lane)
		return 3
	}
	tl, ok := nativetools.Default.Lookup(name)
	if !ok {
		fmt.Fprintln(os.Stderr, "no native tool", name)
		return 3
	}
	dir, _ := os.Getwd()
	env := &tool.Env{Dir: dir, LookupEnv: os.LookupEnv, Stdin: strings.NewReader(""), Log: io.Discard}
	out := tl.Call(context.Background(), env, input)
	if !out.Success {
		fmt.Fprintf(os.Stderr, "%+v\n", out.Error)
		return 1
	}
	return 0
}
