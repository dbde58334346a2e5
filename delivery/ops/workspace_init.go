package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WorkspaceInitInput is workspace:init's input.
type WorkspaceInitInput struct {
	// Dir is the directory the call started in; Output, when set, is resolved against it.
	Dir string
	// Output is the workspace directory (created when missing); "" is Dir.
	Output string
	// Name is the workspace's name; "" is the directory's base name.
	Name string
	// Force overwrites an existing workspace.yaml.
	Force bool
}

// WorkspaceInitData is workspace:init's JSON data.
type WorkspaceInitData struct {
	Path           string   `json:"path"`
	Created        []string `json:"created"`
	GitignoreAdded []string `json:"gitignore_added"`
}

// WorkspaceInit is corpus §3.8 workspace:init: workspace.yaml (the defaults, with the
// name and its kebab-case id), the configured directories and the stamps directory's
// .gitkeep when missing, and the runtime lines .gitignore lacks, appended in one write.
// It never commits and needs no workspace. An existing workspace.yaml is ALREADY_EXISTS
// (details.path) unless Force, and nothing is written then. Notes.Headline is the text
// headline.
func WorkspaceInit(ctx context.Context, rt *delivery.Runtime, in WorkspaceInitInput) (WorkspaceInitData, Notes, error) {
	var notes Notes
	dir := in.Dir
	if o := in.Output; o != "" {
		dir = filepath.Join(in.Dir, o)
		if filepath.IsAbs(o) {
			dir = filepath.Clean(o)
		}
	}
	name := in.Name
	if name == "" {
		name = filepath.Base(dir)
	}
	cfgPath := filepath.Join(dir, delivery.ConfigFile)
	if _, err := os.Stat(cfgPath); err == nil && !in.Force {
		return WorkspaceInitData{}, notes, (&delivery.Error{Code: tool.CodeAlreadyExists,
			Message: fmt.Sprintf("%s already exists in %s (use --force to overwrite)", delivery.ConfigFile, dir)}).
			WithDetails(map[string]any{"path": dir})
	}
	cfg := delivery.DefaultConfig()
	data, err := storage.EncodeYAML(initialConfig(name, cfg))
	if err != nil {
		return WorkspaceInitData{}, notes, delivery.Errorf(tool.CodeInternal, "encode %s: %w", delivery.ConfigFile, err)
	}
	if err := storage.WriteFileAtomic(cfgPath, data, 0o644); err != nil {
		return WorkspaceInitData{}, notes, delivery.Errorf(tool.CodeIOError, "write %s: %w", delivery.ConfigFile, err)
	}
	out := WorkspaceInitData{Path: dir, Created: []string{delivery.ConfigFile}}
	for _, d := range []string{cfg.WUDir, cfg.InitiativesDir, cfg.PlansDir, delivery.StateDir} {
		d = strings.TrimSuffix(d, "/")
		made, err := mkdirReport(filepath.Join(dir, filepath.FromSlash(d)))
		if err != nil {
			return WorkspaceInitData{}, notes, err
		}
		if made {
			out.Created = append(out.Created, d)
		}
	}
	keep := path.Join(delivery.StampsDir, ".gitkeep")
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(keep))); errors.Is(err, fs.ErrNotExist) {
		if err := storage.WriteFileAtomic(filepath.Join(dir, filepath.FromSlash(keep)), nil, 0o644); err != nil {
			return WorkspaceInitData{}, notes, delivery.Errorf(tool.CodeIOError, "write %s: %w", keep, err)
		}
		out.Created = append(out.Created, keep)
	}
	if out.GitignoreAdded, err = appendIgnores(filepath.Join(dir, ".gitignore")); err != nil {
		return WorkspaceInitData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Initialised workspace %s in %s", name, dir)
	return out, notes, nil
}

// initialConfig is the workspace.yaml of corpus §3.8, in the §1.14 encoding.
func initialConfig(name string, cfg *delivery.Config) *yaml.Node {
	root := storage.NewMap()
	storage.MapSet(root, "id", storage.StrNode(delivery.Kebab(name)))
	storage.MapSet(root, "name", storage.StrNode(name))
	sd := storage.NewMap()
	dirs := storage.NewMap()
	storage.MapSet(dirs, "wuDir", storage.StrNode(cfg.WUDir))
	storage.MapSet(dirs, "initiativesDir", storage.StrNode(cfg.InitiativesDir))
	storage.MapSet(dirs, "plansDir", storage.StrNode(cfg.PlansDir))
	storage.MapSet(dirs, "worktrees", storage.StrNode(cfg.WorktreesDir))
	storage.MapSet(sd, "directories", dirs)
	lane := storage.NewMap()
	storage.MapSet(lane, "name", storage.StrNode("General"))
	storage.MapSet(lane, "wip_limit", storage.IntNode(1))
	storage.MapSet(lane, "lock_policy", storage.StrNode(delivery.LockAll))
	storage.MapSet(lane, "code_paths", storage.StrSeq([]string{"**"}))
	lanes := storage.NewMap()
	storage.MapSet(lanes, "definitions", storage.NewSeq(lane))
	storage.MapSet(sd, "lanes", lanes)
	gates := storage.NewMap()
	storage.MapSet(gates, "commands", storage.NewSeq())
	storage.MapSet(sd, "gates", gates)
	git := storage.NewMap()
	storage.MapSet(git, "auto_commit", storage.BoolNode(true))
	storage.MapSet(git, "push", storage.BoolNode(false))
	storage.MapSet(sd, "git", git)
	storage.MapSet(root, "software_delivery", sd)
	return root
}

// mkdirReport creates dir and its parents, reporting whether dir was missing.
func mkdirReport(dir string) (bool, error) {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return false, nil
	}
	if err := storage.JournalMkdir(dir); err != nil {
		return false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, delivery.Errorf(tool.CodeIOError, "create %s: %w", dir, err)
	}
	return true, nil
}

// appendIgnores appends the runtime lines (RuntimeIgnores) .gitignore lacks, in one
// write, and returns them.
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
	for _, l := range RuntimeIgnores {
		if !have[l] {
			added = append(added, l)
			b.WriteString(l + "\n")
		}
	}
	if len(added) == 0 {
		return added, nil
	}
	if err := storage.WriteFileAtomic(p, append(data, b.String()...), 0o644); err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "write .gitignore: %w", err)
	}
	return added, nil
}
