package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "workspace:init",
		New: newWorkspaceInitApp, Main: convention.Main(newWorkspaceInitApp)})
}

func newWorkspaceInitApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "workspace:init",
		Usage: "Create workspace.yaml, the default directories and the runtime .gitignore entries (never commits)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Usage: "workspace directory (default: the current directory)"},
			&cli.StringFlag{Name: "name", Usage: "workspace name (default: the directory's base name)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing workspace.yaml"},
			&cli.BoolFlag{Name: "yes", Usage: "accepted for compatibility; the command never asks"},
		},
		Paths:       map[string]string{"output": "write"},
		Destructive: true,
		Effects:     []tool.Effect{tool.WritesWhen(tool.IsUnset("force"))},
		Action:      workspaceInit,
	})
}

func workspaceInit(c *convention.Call) error {
	cwd, err := c.Dir()
	if err != nil {
		return err
	}
	dir := cwd
	if o := c.String("output"); o != "" {
		dir = filepath.Join(cwd, o)
		if filepath.IsAbs(o) {
			dir = filepath.Clean(o)
		}
	}
	name := c.String("name")
	if name == "" {
		name = filepath.Base(dir)
	}
	cfgPath := filepath.Join(dir, delivery.ConfigFile)
	if _, err := os.Stat(cfgPath); err == nil && !c.Bool("force") {
		return c.Fail(tool.CodeAlreadyExists, fmt.Sprintf("%s already exists in %s (use --force to overwrite)", delivery.ConfigFile, dir),
			map[string]any{"path": dir})
	}
	cfg := delivery.DefaultConfig()
	data, err := delivery.EncodeYAML(initialConfig(name, cfg))
	if err != nil {
		return delivery.Errorf(tool.CodeInternal, "encode %s: %w", delivery.ConfigFile, err)
	}
	created := []string{}
	if err := delivery.WriteFileAtomic(cfgPath, data, 0o644); err != nil {
		return delivery.Errorf(tool.CodeIOError, "write %s: %w", delivery.ConfigFile, err)
	}
	created = append(created, delivery.ConfigFile)
	for _, d := range []string{cfg.WUDir, cfg.InitiativesDir, cfg.PlansDir, delivery.StateDir} {
		d = strings.TrimSuffix(d, "/")
		if made, err := mkdir(filepath.Join(dir, filepath.FromSlash(d))); err != nil {
			return err
		} else if made {
			created = append(created, d)
		}
	}
	keep := path.Join(delivery.StampsDir, ".gitkeep")
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(keep))); errors.Is(err, fs.ErrNotExist) {
		if err := delivery.WriteFileAtomic(filepath.Join(dir, filepath.FromSlash(keep)), nil, 0o644); err != nil {
			return delivery.Errorf(tool.CodeIOError, "write %s: %w", keep, err)
		}
		created = append(created, keep)
	}
	added, err := appendIgnores(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Initialised workspace %s in %s", name, dir),
		initData{Path: dir, Created: created, GitignoreAdded: added})
}

// initialConfig is the workspace.yaml of spec §3.8, in the §1.14 encoding.
func initialConfig(name string, cfg *delivery.Config) *yaml.Node {
	root := delivery.NewMap()
	delivery.MapSet(root, "id", delivery.StrNode(delivery.Kebab(name)))
	delivery.MapSet(root, "name", delivery.StrNode(name))
	sd := delivery.NewMap()
	dirs := delivery.NewMap()
	delivery.MapSet(dirs, "wuDir", delivery.StrNode(cfg.WUDir))
	delivery.MapSet(dirs, "initiativesDir", delivery.StrNode(cfg.InitiativesDir))
	delivery.MapSet(dirs, "plansDir", delivery.StrNode(cfg.PlansDir))
	delivery.MapSet(dirs, "worktrees", delivery.StrNode(cfg.WorktreesDir))
	delivery.MapSet(sd, "directories", dirs)
	lane := delivery.NewMap()
	delivery.MapSet(lane, "name", delivery.StrNode("General"))
	delivery.MapSet(lane, "wip_limit", delivery.IntNode(1))
	delivery.MapSet(lane, "lock_policy", delivery.StrNode(delivery.LockAll))
	delivery.MapSet(lane, "code_paths", delivery.StrSeq([]string{"**"}))
	lanes := delivery.NewMap()
	delivery.MapSet(lanes, "definitions", delivery.NewSeq(lane))
	delivery.MapSet(sd, "lanes", lanes)
	gates := delivery.NewMap()
	delivery.MapSet(gates, "commands", delivery.NewSeq())
	delivery.MapSet(sd, "gates", gates)
	git := delivery.NewMap()
	delivery.MapSet(git, "auto_commit", delivery.BoolNode(true))
	delivery.MapSet(git, "push", delivery.BoolNode(false))
	delivery.MapSet(sd, "git", git)
	delivery.MapSet(root, "software_delivery", sd)
	return root
}

// mkdir creates dir and its parents, reporting whether dir was missing.
func mkdir(dir string) (bool, error) {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return false, nil
	}
	if err := delivery.JournalMkdir(dir); err != nil {
		return false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, delivery.Errorf(tool.CodeIOError, "create %s: %w", dir, err)
	}
	return true, nil
}

// appendIgnores appends the runtime lines .gitignore lacks, in one write.
func appendIgnores(p string) ([]string, error) {
	data, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, delivery.Errorf(tool.CodeIOError, "read .gitignore: %w", err)
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	added := []string{}
	var b strings.Builder
	if len(data) > 0 && data[len(data)-1] != '\n' {
		b.WriteByte('\n')
	}
	for _, l := range runtimeIgnores {
		if !have[l] {
			added = append(added, l)
			b.WriteString(l + "\n")
		}
	}
	if len(added) == 0 {
		return added, nil
	}
	if err := delivery.WriteFileAtomic(p, append(data, b.String()...), 0o644); err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "write .gitignore: %w", err)
	}
	return added, nil
}

// initData is workspace:init's JSON data.
type initData struct {
	Path           string   `json:"path"`
	Created        []string `json:"created"`
	GitignoreAdded []string `json:"gitignore_added"`
}
