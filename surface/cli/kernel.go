package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	ucli "github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/cmdbridge/cmdbridge/kernel"
)

// ConfigFile is the kernel configuration a workspace may carry, relative to its root.
const ConfigFile = ".cmdbridge/config.yaml"

// fileConfig is the YAML form of the parts of kernel.Config an operator sets.
type fileConfig struct {
	Governance struct {
		Allowed  *[]string `yaml:"allowed"`
		Disabled []string  `yaml:"disabled"`
		Excluded []string  `yaml:"excluded"`
	} `yaml:"governance"`
	Policy []kernel.Rule     `yaml:"policy"`
	Routes map[string]string `yaml:"routes"`
}

// loadFileConfig reads <workspace>/.cmdbridge/config.yaml into cfg; a missing file leaves
// the defaults.
func loadFileConfig(workspace string, cfg *kernel.Config) error {
	path := filepath.Join(workspace, ConfigFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var fc fileConfig
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&fc); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: %w", ConfigFile, err)
	}
	if fc.Governance.Allowed != nil {
		cfg.Governance.Allowed = append([]string{}, *fc.Governance.Allowed...)
	}
	cfg.Governance.Disabled = fc.Governance.Disabled
	cfg.Governance.Excluded = fc.Governance.Excluded
	if fc.Policy != nil {
		cfg.Policy = fc.Policy
	}
	cfg.Routes = fc.Routes
	return nil
}

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
	if err := loadFileConfig(ws, &cfg); err != nil {
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
