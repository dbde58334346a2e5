package tool

import (
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// Access says how a tool uses a path input.
type Access string

const (
	Read  Access = "read"
	Write Access = "write"
)

// PathInput names an input property that holds a path (or a list of paths) and how the
// tool uses it. The kernel resolves these and checks them against the caller's scopes.
type PathInput struct {
	Property string `json:"property"`
	Access   Access `json:"access"`
}

// Annotations are the MCP tool annotations.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// Spec describes one tool.
type Spec struct {
	// Name is the canonical name, equal to the legacy command name (wu:create).
	Name        string `json:"name"`
	Description string `json:"description"`
	// Domain groups tools for listings (wu, memory, git, …).
	Domain       string             `json:"domain,omitempty"`
	InputSchema  *jsonschema.Schema `json:"input_schema"`
	OutputSchema *jsonschema.Schema `json:"output_schema,omitempty"`
	Annotations  Annotations        `json:"annotations"`
	Paths        []PathInput        `json:"paths,omitempty"`
	Network      bool               `json:"network"`
	// DefaultTimeout applies when the call does not ask for one; MaxTimeout clamps what a
	// call may ask for.
	DefaultTimeout    time.Duration `json:"default_timeout"`
	MaxTimeout        time.Duration `json:"max_timeout"`
	ParallelSafe      bool          `json:"parallel_safe"`
	RequiredApprovals []string      `json:"required_approvals,omitempty"`
}

// Default timeouts for a tool that declares none.
const (
	DefaultTimeout = 60 * time.Second
	MaxTimeout     = 15 * time.Minute
)
