package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
)

// openKernel builds the kernel for the workspace the global flags name.
func openKernel(c *ucli.Context) (*kernel.Kernel, error) {
	ws, err := workspaceDir(c)
	if err != nil {
		return nil, err
	}
	cfg := kernel.Config{
		Workspace:      ws,
		Commands:       hostOf(c).Commands,
		Native:         hostOf(c).Native,
		Adapter:        kernel.AdapterBridge{},
		AdapterOptions: kernel.AdapterOptions{Binary: deliveryBinary(c)},
		LookupEnv:      os.LookupEnv,
		Runtime:        hostOf(c).Runtime,
		Approver:       terminalApprover(c.App.Reader, c.App.ErrWriter),
	}
	fc, err := kernel.LoadFileConfig(filepath.Join(ws, kernel.ConfigFile))
	if err != nil {
		return nil, err
	}
	if err := fc.Apply(&cfg); err != nil {
		return nil, err
	}
	return kernel.New(cfg)
}

// terminalApprover asks the person at the terminal; it is only consulted for calls made
// with --interactive.
func terminalApprover(in io.Reader, out io.Writer) kernel.Approver {
	if in == nil {
		in = os.Stdin
	}
	lines := bufio.NewReader(in)
	return kernel.ApproverFunc(func(ctx context.Context, req kernel.ApprovalRequest) (bool, error) {
		fmt.Fprintf(out, "cmdbridge: approve %s (rule %s) with input %s? [y/N] ", req.Tool, req.Rule, req.Input)
		answer := make(chan string, 1)
		go func() {
			s, _ := lines.ReadString('\n')
			answer <- strings.TrimSpace(strings.ToLower(s))
		}()
		select {
		case a := <-answer:
			return a == "y" || a == "yes", nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	})
}
