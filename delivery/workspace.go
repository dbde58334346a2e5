package delivery

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

	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// ConfigFile is the workspace configuration file name.
const ConfigFile = "workspace.yaml"

// Runtime paths relative to the workspace root (corpus §1.7–§1.13).
const (
	StateDir        = ".lumenflow/state"
	EventsFile      = ".lumenflow/state/wu-events.jsonl"
	DelegationFile  = ".lumenflow/state/delegation-registry.jsonl"
	StampsDir       = ".lumenflow/stamps"
	LocksDir        = ".lumenflow/locks"
	MemoryDir       = ".lumenflow/memory"
	MemoryFile      = ".lumenflow/memory/memory.jsonl"
	RelationsFile   = ".lumenflow/memory/relationships.jsonl"
	SignalsFile     = ".lumenflow/memory/signals.jsonl"
	ReceiptsFile    = ".lumenflow/memory/signal-receipts.jsonl"
	GatesTelemetry  = ".lumenflow/telemetry/gates.ndjson"
	SkipGatesAudit  = ".lumenflow/skip-gates-audit.ndjson"
	SessionFile     = ".lumenflow/sessions/current.json"
	IncidentsDir    = ".lumenflow/incidents"
	ArchiveDir      = ".lumenflow/archive"
	ConstraintsFile = ".lumenflow/constraints.md"
)

// Workspace is an opened workspace: its root (the main checkout), the checkout the
// command was started in, and the parsed configuration.
type Workspace struct {
	// Root is the absolute main checkout: all state is read and written here.
	Root string
	// Checkout is the absolute root of the checkout that contains the start directory (a
	// linked worktree, or Root). Gates and wu:sandbox execute here.
	Checkout string
	// Doc is workspace.yaml as a node tree (for config:get/set and round-trip edits).
	Doc *yaml.Node
	// Config is the typed view with defaults.
	Config *Config
	// Source, when set, serves WU specs, initiatives and the event log from a warm cache
	// instead of the disk (see source.go); nil reads the disk, as every legacy run does.
	Source Source
}

// FindRoot resolves the workspace root for a command started in dir (corpus §1.1):
// $DELIVERY_WORKSPACE when set (absolute), otherwise the nearest ancestor of dir holding
// workspace.yaml; a linked git worktree is mapped to its main checkout. It returns the main
// checkout and the checkout found first. No workspace.yaml gives a NO_WORKSPACE error.
func FindRoot(ctx context.Context, dir string, env gitrepo.LookupEnv) (root, checkout string, err error) {
	if v, ok := env("DELIVERY_WORKSPACE"); ok && v != "" {
		if !filepath.IsAbs(v) {
			return "", "", Errorf(tool.CodeUsage, "invalid environment variable DELIVERY_WORKSPACE: must be an absolute path")
		}
		checkout = filepath.Clean(v)
		if _, err := os.Stat(filepath.Join(checkout, ConfigFile)); err != nil {
			return "", "", Errorf(tool.CodeNoWorkspace, "no %s in DELIVERY_WORKSPACE %s", ConfigFile, checkout)
		}
	} else {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", "", fmt.Errorf("resolve %s: %w", dir, err)
		}
		for d := abs; ; d = filepath.Dir(d) {
			if fi, err := os.Stat(filepath.Join(d, ConfigFile)); err == nil && !fi.IsDir() {
				checkout = d
				break
			}
			if filepath.Dir(d) == d {
				return "", "", Errorf(tool.CodeNoWorkspace, "no %s found in %s or any parent directory (run workspace:init)", ConfigFile, abs)
			}
		}
	}
	return gitrepo.MainCheckout(ctx, checkout, env), checkout, nil
}

// Open finds and loads the workspace for a command started in dir.
func Open(ctx context.Context, dir string, env gitrepo.LookupEnv) (*Workspace, error) {
	root, checkout, err := FindRoot(ctx, dir, env)
	if err != nil {
		return nil, err
	}
	return Load(root, checkout)
}

// Load reads workspace.yaml of root. A file that is not valid YAML is CONFIG_INVALID.
func Load(root, checkout string) (*Workspace, error) {
	data, err := os.ReadFile(filepath.Join(root, ConfigFile))
	return LoadBytes(root, checkout, data, err)
}

// LoadBytes is Load of workspace.yaml content already read (readErr: the read's error).
func LoadBytes(root, checkout string, data []byte, readErr error) (*Workspace, error) {
	if err := readErr; err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Errorf(tool.CodeNoWorkspace, "no %s in %s", ConfigFile, root)
		}
		return nil, Errorf(tool.CodeIOError, "read %s: %w", ConfigFile, err)
	}
	doc, err := storage.DecodeYAML(data)
	if err != nil {
		return nil, Errorf(tool.CodeConfigInvalid, "%s: %w", ConfigFile, err)
	}
	return &Workspace{Root: root, Checkout: checkout, Doc: doc, Config: ParseConfig(doc)}, nil
}

// Abs returns the absolute path of a root-relative slash path.
func (w *Workspace) Abs(rel string) string { return filepath.Join(w.Root, filepath.FromSlash(rel)) }

// Rel returns the root-relative slash path of an absolute path.
func (w *Workspace) Rel(abs string) string {
	r, err := filepath.Rel(w.Root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(r)
}

// WUPath is the root-relative path of a WU spec.
func (w *Workspace) WUPath(id string) string { return path.Join(cleanDir(w.Config.WUDir), id+".yaml") }

// InitiativePath is the root-relative path of an initiative file.
func (w *Workspace) InitiativePath(id string) string {
	return path.Join(cleanDir(w.Config.InitiativesDir), id+".yaml")
}

// StampPath is the root-relative path of a WU's stamp.
func (w *Workspace) StampPath(id string) string { return StampRel(id) }

// PlanPath is the root-relative path of the plan of a WU or initiative id.
func (w *Workspace) PlanPath(id string) string {
	return path.Join(cleanDir(w.Config.PlansDir), id+"-plan.md")
}

// WorktreePath is the root-relative worktree of a WU (corpus §1.4).
func (w *Workspace) WorktreePath(lane, id string) string {
	return WorktreePath(w.Config.WorktreesDir, lane, id)
}

// LaneBranch is the lane branch of a WU (corpus §1.4).
func (w *Workspace) LaneBranch(lane, id string) string {
	return LaneBranch(w.Config.LaneBranchPrefix, lane, id)
}

// SaveConfig writes the workspace.yaml node tree back with the shared encoder.
func (w *Workspace) SaveConfig() error {
	data, err := storage.EncodeYAML(w.Doc)
	if err != nil {
		return Errorf(tool.CodeInternal, "%s: %w", ConfigFile, err)
	}
	if err := storage.WriteFileAtomic(filepath.Join(w.Root, ConfigFile), data, 0o644); err != nil {
		return Errorf(tool.CodeIOError, "write %s: %w", ConfigFile, err)
	}
	w.Config = ParseConfig(w.Doc)
	return nil
}

func cleanDir(d string) string {
	d = strings.TrimRight(filepath.ToSlash(d), "/")
	if d == "" {
		return "."
	}
	return d
}
