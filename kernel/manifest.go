package kernel

import (
	"encoding/json"
	"fmt"

	"github.com/cmdbridge/cmdbridge/tool"
)

// ManifestVersion is the schema version of Manifest's document.
const ManifestVersion = 1

// ManifestTool is one tool in the manifest.
type ManifestTool struct {
	Name              string           `json:"name"`
	MCPName           string           `json:"mcp_name"`
	Domain            string           `json:"domain"`
	Description       string           `json:"description"`
	InputSchema       any              `json:"input_schema"`
	OutputSchema      any              `json:"output_schema"`
	Annotations       tool.Annotations `json:"annotations"`
	Effects           []tool.Effect    `json:"effects,omitempty"`
	Paths             []tool.PathInput `json:"paths"`
	Network           bool             `json:"network"`
	DefaultTimeoutMS  int64            `json:"default_timeout_ms"`
	MaxTimeoutMS      int64            `json:"max_timeout_ms"`
	ParallelSafe      bool             `json:"parallel_safe"`
	RequiredApprovals []string         `json:"required_approvals"`
	Route             string           `json:"route"`
	Lanes             []string         `json:"lanes"`
	Governance        string           `json:"governance"`
	// Warnings are the problems met deriving the tool's schema (tool.Spec.Warnings).
	Warnings []string `json:"warnings,omitempty"`
}

// ManifestTools returns the manifest entries of every visible tool, sorted by name.
func (k *Kernel) ManifestTools() ([]ManifestTool, error) {
	var out []ManifestTool
	for _, spec := range k.Tools() {
		e := k.entries[spec.Name]
		in, err := canonicalAny(spec.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("manifest: %s: %w", spec.Name, err)
		}
		var outSchema any
		if spec.OutputSchema != nil {
			if outSchema, err = canonicalAny(spec.OutputSchema); err != nil {
				return nil, fmt.Errorf("manifest: %s: %w", spec.Name, err)
			}
		}
		var lanes []string
		if e.command != nil {
			lanes = append(lanes, LaneAdapter, LaneSubprocess)
		}
		if e.native != nil {
			lanes = append(lanes, LaneNative)
		}
		gov := "enabled"
		if why := k.govern(spec.Name); why != "" {
			gov = why
		}
		out = append(out, ManifestTool{
			Name: spec.Name, MCPName: tool.MCPName(spec.Name), Domain: spec.Domain,
			Description: spec.Description, InputSchema: in, OutputSchema: outSchema,
			Annotations: spec.Annotations, Effects: spec.Effects, Paths: nonNil(spec.Paths), Network: spec.Network,
			DefaultTimeoutMS: spec.DefaultTimeout.Milliseconds(), MaxTimeoutMS: spec.MaxTimeout.Milliseconds(),
			ParallelSafe: spec.ParallelSafe, RequiredApprovals: nonNil(spec.RequiredApprovals),
			Route: e.route, Lanes: lanes, Governance: gov, Warnings: spec.Warnings,
		})
	}
	return out, nil
}

// Manifest returns the deterministic JSON manifest of every visible tool: identical
// registries and configuration give identical bytes.
func (k *Kernel) Manifest() ([]byte, error) {
	tools, err := k.ManifestTools()
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(struct {
		Version int            `json:"manifest_version"`
		Pack    string         `json:"pack"`
		Tools   []ManifestTool `json:"tools"`
	}{ManifestVersion, k.cfg.Pack, tools}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return append(b, '\n'), nil
}

// canonicalAny turns a value into generic JSON (maps marshal with sorted keys).
func canonicalAny(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
