package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"slices"
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
//
// The same file holds keys the kernel does not read (cmdbridge serve's nats, cmdbridge
// status's shadow_promotion): their reader names them to LoadFileConfig as a
// [FileSection], and the kernel neither reads nor knows them.
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

	policySet bool
}

// FileSection is a top-level key of the config file that a host reads and the kernel
// does not, such as cmdbridge serve's nats. LoadFileConfig accepts the key and decodes
// its value into Into (a pointer, usually to a pointer to a struct with yaml tags), where
// an unknown key is an error as it is anywhere else in the file.
type FileSection struct {
	Key  string
	Into any
}

type fileEvidence struct {
	Dir             string `yaml:"dir"`
	Witness         string `yaml:"witness"`
	CheckpointEvery int    `yaml:"checkpoint_every"`
	Sync            string `yaml:"sync"`
}

// LoadFileConfig reads path; a missing file is an empty FileConfig. The file may hold
// the keys of sections besides the kernel's; any other key is an error. Unknown keys,
// the kernel's and the sections' alike, are reported together in the file's order.
func LoadFileConfig(path string, sections ...FileSection) (FileConfig, error) {
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
	if err := decodeFile(data, &fc, sections); err != nil {
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

// decodeFile decodes data into fc, unknown keys being errors, and each section's key
// into its Into. The kernel's decoding reports a section's key as unknown: that report
// is dropped, and the section's own decoding reports what is wrong inside it. The
// reports are yaml's own, merged in line order.
func decodeFile(data []byte, fc *FileConfig, sections []FileSection) error {
	var reports []string
	known := func(target any) error {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		err := dec.Decode(target)
		var te *yaml.TypeError
		switch {
		case err == nil, errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &te):
			reports = append(reports, te.Errors...)
			return nil
		}
		return err
	}
	if err := known(fc); err != nil {
		return err
	}
	keys := topLevelKeys(data)
	for _, s := range sections {
		line, ok := keys[s.Key]
		if !ok {
			continue
		}
		unknown := fmt.Sprintf("line %d: field %s not found in type %T", line, s.Key, *fc)
		reports = slices.DeleteFunc(reports, func(r string) bool { return r == unknown })
		into := reflect.ValueOf(s.Into)
		if into.Kind() != reflect.Pointer || into.IsNil() {
			return fmt.Errorf("section %s: Into is %T, not a pointer", s.Key, s.Into)
		}
		// The section's key beside a catch-all for every other key: the section is
		// decoded with unknown keys refused inside it and the rest of the file ignored.
		doc := reflect.New(reflect.StructOf([]reflect.StructField{
			{Name: "Section", Type: into.Elem().Type(), Tag: reflect.StructTag(`yaml:"` + s.Key + `"`)},
			{Name: "Rest", Type: reflect.TypeFor[map[string]yaml.Node](), Tag: `yaml:",inline"`},
		}))
		if err := known(doc.Interface()); err != nil {
			return err
		}
		into.Elem().Set(doc.Elem().Field(0))
	}
	if len(reports) == 0 {
		return nil
	}
	slices.SortStableFunc(reports, func(a, b string) int { return reportLine(a) - reportLine(b) })
	return &yaml.TypeError{Errors: reports}
}

// topLevelKeys maps each key of data's top-level mapping to its line.
func topLevelKeys(data []byte) map[string]int {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	keys := map[string]int{}
	m := doc.Content[0].Content
	for i := 0; i+1 < len(m); i += 2 {
		keys[m[i].Value] = m[i].Line
	}
	return keys
}

// reportLine is the line a yaml report ("line 3: …") names, 0 when none.
func reportLine(report string) int {
	var n int
	_, _ = fmt.Sscanf(report, "line %d:", &n)
	return n
}
