package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
)

// ConfigFile is where a workspace keeps its kernel settings, relative to the workspace.
const ConfigFile = ".cmdbridge/config.yaml"

// FileConfig is the on-disk form of the settings a host may let a workspace choose.
// Unknown keys are errors, so a typo never silently loosens governance.
//
//	governance:
//	  allowed: [git:status, wu:*]   # omit for no allowlist; [] denies everything
//	  disabled: [wu:delete]
//	  excluded: []
//	policy:
//	  - {name: ro, read_only: true, decision: allow}
//	  - {name: destructive, destructive: true, decision: ask, priority: 10}
//	approval_timeout: 2m
//	evidence: {dir: .cmdbridge/evidence, checkpoint_every: 1000, sync: group, witness: /var/lib/ops/witness.jsonl}
//	routes: {wu:status: shadow}
//	sandboxed: [git:*, file:write]   # always run in the bwrap sandbox
//	max_parallel: 8
//	max_stdin: 1048576               # bytes of standard input one call may carry
//	profiles:                        # named tool subsets (cmdbridge mcp --profile review)
//	  review:
//	    description: read the work unit and the code, change nothing
//	    tools: [wu:status, "file:*", "git:*"]
//	    read_only: true                # keep only readOnlyHint tools; destructive: false likewise
//	    require: [wu:status, file:read]
//	nats:                            # cmdbridge serve also joins this broker (docs/scale.md)
//	  url: nats://127.0.0.1:4222
//	  creds: /etc/cmdbridge/ws-1.creds
type FileConfig struct {
	Governance      *Governance       `yaml:"governance"`
	Policy          []Rule            `yaml:"policy"`
	ApprovalTimeout string            `yaml:"approval_timeout"`
	Evidence        *fileEvidence     `yaml:"evidence"`
	Routes          map[string]string `yaml:"routes"`
	Sandboxed       []string          `yaml:"sandboxed"`
	// UnconfinedWorkspaceCode: Config.UnconfinedWorkspaceCode.
	UnconfinedWorkspaceCode bool               `yaml:"unconfined_workspace_code"`
	MaxParallel             int                `yaml:"max_parallel"`
	MaxStdin                int                `yaml:"max_stdin"`
	Profiles                map[string]Profile `yaml:"profiles"`
	// NATS is read by cmdbridge serve, not by the kernel: Apply ignores it.
	NATS *FileNATS `yaml:"nats"`
	// ShadowPromotion is the rule `cmdbridge status --workspace` applies to the shadow
	// runs of the log; the kernel does not read it either.
	ShadowPromotion *FilePromotion `yaml:"shadow_promotion"`

	policySet bool
}

// FileNATS is the broker a sidecar joins besides serving HTTP: the server URLs
// (comma-separated) and an optional NATS credentials file.
type FileNATS struct {
	URL   string `yaml:"url"`
	Creds string `yaml:"creds"`
}

// FilePromotion is when a shadow-routed tool may be routed native: at least Matches
// matching shadow runs, at most MaxMismatches disagreeing ones.
type FilePromotion struct {
	Matches       int `yaml:"matches"`
	MaxMismatches int `yaml:"max_mismatches"`
}

type fileEvidence struct {
	Dir             string `yaml:"dir"`
	Witness         string `yaml:"witness"`
	CheckpointEvery int    `yaml:"checkpoint_every"`
	Sync            string `yaml:"sync"`
}

// LoadFileConfig reads path; a missing file is an empty FileConfig.
func LoadFileConfig(path string) (FileConfig, error) {
	var fc FileConfig
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fc, nil
	}
	if err != nil {
		return fc, fmt.Errorf("kernel config: %w", err)
	}
	// What a tool does is the program's declaration (its metadata, cmdbridge.Config.Effects),
	// never the workspace's: a workspace that could call drop read-only would take it past
	// the default policy's approval and into read-only tokens and profiles. A workspace
	// makes a tool stricter with policy rules, governance and profiles instead.
	var keys map[string]any
	if yaml.Unmarshal(data, &keys) == nil {
		if _, ok := keys["effects"]; ok {
			return fc, fmt.Errorf("kernel config %s: effects are declared by the program (cmdbridge.Config.Effects), never by the workspace; "+
				"to make a tool stricter here, add a policy rule (decision: ask or deny), disable it under governance, or leave it out of a profile", path)
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&fc); err != nil && !errors.Is(err, io.EOF) {
		return fc, fmt.Errorf("kernel config %s: %w", path, err)
	}
	// Presence matters: "allowed: []" denies everything and "policy: []" means no rules,
	// while an absent key keeps the default.
	var probe struct {
		Governance struct {
			Allowed *[]string `yaml:"allowed"`
		} `yaml:"governance"`
		Policy *[]Rule `yaml:"policy"`
	}
	_ = yaml.Unmarshal(data, &probe)
	fc.policySet = probe.Policy != nil
	if fc.Governance != nil {
		if probe.Governance.Allowed == nil {
			fc.Governance.Allowed = nil
		} else if fc.Governance.Allowed == nil {
			fc.Governance.Allowed = []string{}
		}
	}
	return fc, nil
}

// Apply copies the file's settings over cfg. A policy key that is present (even an
// empty list) replaces the default policy; an absent one leaves cfg.Policy alone.
func (fc FileConfig) Apply(cfg *Config) error {
	if fc.Governance != nil {
		cfg.Governance = *fc.Governance
	}
	if fc.policySet {
		cfg.Policy = append([]Rule{}, fc.Policy...)
	}
	if fc.ApprovalTimeout != "" {
		d, err := time.ParseDuration(fc.ApprovalTimeout)
		if err != nil || d <= 0 {
			return fmt.Errorf("kernel config: approval_timeout %q is not a positive duration", fc.ApprovalTimeout)
		}
		cfg.ApprovalTimeout = d
	}
	if e := fc.Evidence; e != nil {
		cfg.Evidence.Dir = e.Dir
		cfg.Evidence.Witness = e.Witness
		cfg.Evidence.CheckpointEvery = e.CheckpointEvery
		switch e.Sync {
		case "", "group":
			cfg.Evidence.Sync = evidence.SyncGroup
		case "buffered":
			cfg.Evidence.Sync = evidence.SyncBuffered
		default:
			return fmt.Errorf("kernel config: evidence.sync %q is not group or buffered", e.Sync)
		}
	}
	if fc.Routes != nil {
		cfg.Routes = fc.Routes
	}
	if fc.MaxParallel > 0 {
		cfg.MaxParallel = fc.MaxParallel
	}
	switch {
	case fc.MaxStdin < 0:
		return fmt.Errorf("kernel config: max_stdin %d is negative", fc.MaxStdin)
	case fc.MaxStdin > 0:
		cfg.MaxStdin = fc.MaxStdin
	}
	if fc.Sandboxed != nil {
		cfg.Sandboxed = fc.Sandboxed
	}
	if fc.UnconfinedWorkspaceCode {
		cfg.UnconfinedWorkspaceCode = true
	}
	if fc.Profiles != nil {
		profiles := make(map[string]Profile, len(fc.Profiles))
		for name, p := range fc.Profiles {
			if !validProfileName(name) {
				return fmt.Errorf("kernel config: profile name %q: use letters, digits, '-', '_' and '.', starting with a letter or digit", name)
			}
			if p.Description == "" {
				return fmt.Errorf("kernel config: profile %s has no description", name)
			}
			profiles[name] = p
		}
		cfg.Profiles = profiles
	}
	return nil
}

// validProfileName keeps profile names usable as a flag value and in a host's server
// entry: ASCII letters, digits, '-', '_' and '.', not starting with a punctuation mark.
func validProfileName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case i > 0 && (r == '-' || r == '_' || r == '.'):
		default:
			return false
		}
	}
	return true
}
