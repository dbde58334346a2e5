package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/cmdbridge/cmdbridge/tool"
)

// The test binary doubles as the sandbox runner (and as the helpers the runner starts):
// re-executing it is much cheaper than building cmdbridge.
const (
	argRunner = "__sandbox-test-runner"
	argDaemon = "__sandbox-test-daemon"
	argGarble = "__sandbox-test-garble"
	argSilent = "__sandbox-test-silent"
	argTrue   = "__sandbox-test-true"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case argRunner:
			if err := Serve(context.Background(), os.Stdin, os.NewFile(ResultFD, "result"), testTool); err != nil {
				fmt.Fprintln(os.Stderr, err)
				syscall.Exit(1)
			}
			// syscall.Exit skips the race detector's one-second sleep at exit.
			syscall.Exit(0)
		case argDaemon:
			// A daemon the runner detached; the marker in its argv lets the host find it.
			for {
				time.Sleep(time.Hour)
			}
		case argGarble:
			f := os.NewFile(ResultFD, "result")
			fmt.Fprint(f, `{"output": {"success": tru`)
			f.Close()
			syscall.Exit(0)
		case argSilent:
			fmt.Fprintln(os.Stderr, "runner exploded: cannot frobnicate")
			syscall.Exit(3)
		case argTrue:
			syscall.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// testInput is the input of every test tool.
type testInput struct {
	Path   string `json:"path"`
	Marker string `json:"marker"`
}

// testTool is the runner's dispatch in tests: each tool name is one probe of the
// sandbox from the inside.
func testTool(ctx context.Context, req Request) tool.Output {
	var in testInput
	if err := json.Unmarshal(req.Input, &in); err != nil {
		return tool.Fail(tool.CodeInvalidInput, "%v", err)
	}
	errString := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	switch req.ToolName {
	case "noop":
		return tool.OK(map[string]any{"ok": true})
	case "write":
		err := os.WriteFile(in.Path, []byte("written in the sandbox\n"), 0o644)
		return tool.OK(map[string]any{"err": errString(err)})
	case "stat":
		_, err := os.Stat(in.Path)
		return tool.OK(map[string]any{"exists": err == nil, "err": errString(err)})
	case "remount":
		// As root without a user namespace and dropped capabilities this succeeds.
		err := unix.Mount("none", in.Path, "", unix.MS_REMOUNT|unix.MS_BIND, "")
		err2 := unix.Mount("none", in.Path, "", unix.MS_REMOUNT, "")
		return tool.OK(map[string]any{"bind": errString(err), "plain": errString(err2)})
	case "userns":
		// A nested user namespace, the way unshare -U makes one (clone works in a
		// multi-threaded process where unshare(2) would not).
		cmd := exec.Command(os.Args[0], argTrue)
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}
		err := cmd.Run()
		var unshareErr error
		if _, lerr := os.Stat("/usr/bin/unshare"); lerr == nil {
			unshareErr = exec.Command("/usr/bin/unshare", "-U", "/usr/bin/true").Run()
		} else {
			unshareErr = lerr
		}
		return tool.OK(map[string]any{"clone": errString(err), "unshare": errString(unshareErr)})
	case "ifaces":
		ifs, err := net.Interfaces()
		if err != nil {
			return tool.Fail(tool.CodeIOError, "%v", err)
		}
		names := []string{}
		for _, i := range ifs {
			names = append(names, i.Name)
		}
		return tool.OK(map[string]any{"names": names})
	case "status":
		f, err := os.Open("/proc/self/status")
		if err != nil {
			return tool.Fail(tool.CodeIOError, "%v", err)
		}
		defer f.Close()
		fields := map[string]string{}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), ":")
			fields[k] = strings.TrimSpace(v)
		}
		return tool.OK(fields)
	case "environ":
		return tool.OK(map[string]any{"env": os.Environ()})
	case "daemon":
		cmd := exec.Command(os.Args[0], argDaemon, in.Marker)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			return tool.Fail(tool.CodeIOError, "start daemon: %v", err)
		}
		_ = cmd.Process.Release()
		<-ctx.Done() // never: the host kills the sandbox on its deadline
		return tool.OK(nil)
	case "print":
		fmt.Println(`{"output": {"success": false}}`)
		fmt.Fprintln(os.Stderr, "noise on stderr")
		os.Stdout.Close()
		return tool.OK(map[string]any{"printed": true})
	case "panic":
		panic("boom")
	case "fail":
		fmt.Fprintln(os.Stderr, "the tool explains its failure")
		return tool.Fail(tool.CodeNotFound, "no such thing")
	}
	return tool.Fail(tool.CodeToolNotFound, "test runner has no tool %q", req.ToolName)
}
