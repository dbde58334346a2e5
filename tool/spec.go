package tool

import (
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/tool/effect"
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
	// URL says the value is a URL (a database's, say): a file:, sqlite: or sqlite3: URL
	// is held to the scopes by its path part (file:app.db, sqlite:///var/app.db), any
	// other value as it is written (a postgres:// URL is then a relative name, inside
	// the workspace).
	URL bool `json:"url,omitempty"`
}

// Annotations are the MCP tool annotations.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
	// RunsCodeHint: the tool runs code that the workspace defines (the gate commands of
	// its configuration, a configured shell line) or the caller passes, as processes of
	// their own. Whatever the tool is declared to do, that code may do anything the
	// process running it may: a caller who can write the workspace's configuration
	// chooses it. It implies OpenWorldHint and excludes ReadOnlyHint. Not an MCP
	// annotation: the MCP surface shows it in the tool's _meta.
	RunsCodeHint bool `json:"runsCodeHint,omitempty"`
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
	// Annotations are the worst case over every input: what MCP hosts see in tools/list.
	Annotations Annotations `json:"annotations"`
	// Effects narrow the annotations for the inputs they describe (a dry run is
	// read-only); the kernel's policy follows the effect of each call ([Spec.EffectOf]).
	Effects []Effect    `json:"effects,omitempty"`
	Paths   []PathInput `json:"paths,omitempty"`
	Network bool        `json:"network"`
	// DefaultTimeout applies when the call does not ask for one; MaxTimeout clamps what a
	// call may ask for.
	DefaultTimeout    time.Duration `json:"default_timeout"`
	MaxTimeout        time.Duration `json:"max_timeout"`
	ParallelSafe      bool          `json:"parallel_safe"`
	RequiredApprovals []string      `json:"required_approvals,omitempty"`
	// Warnings say where the spec is a fallback rather than what the command declares
	// (a flag type or a usage text the adapter could not map, a command whose spec could
	// not be derived at all), one sentence each; none for a fully derived spec.
	Warnings []string `json:"warnings,omitempty"`
}

// UndeclaredWarning is the warning (Spec.Warnings) of a legacy command whose program
// declares no effect for it: it is served as destructive until its effects are declared.
// The kernel's policy names the fix in a refusal of such a command.
const UndeclaredWarning = "effects undeclared, so served as destructive: declare them in cmdbridge.Config.Effects (docs/adopt.md, Effects)"

// Default timeouts for a tool that declares none.
const (
	DefaultTimeout = 60 * time.Second
	MaxTimeout     = 15 * time.Minute
)

// Is, Condition and Effect are the light package effect's, which an adopter's program
// links without this package (package effect).
type (
	Is        = effect.Is
	Condition = effect.Condition
	Effect    = effect.Effect
)

// Condition tests.
const (
	Unset  = effect.Unset
	Set    = effect.Set
	Equals = effect.Equals
)

// IsUnset, IsSet and IsEqual build conditions (effect.IsUnset, …).
func IsUnset(property string) Condition { return effect.IsUnset(property) }

// IsSet is the condition that property holds a value the argv builder passes on.
func IsSet(property string) Condition { return effect.IsSet(property) }

// IsEqual is the condition that property equals v.
func IsEqual(property string, v any) Condition { return effect.IsEqual(property, v) }

// ReadOnlyWhen is the effect "read-only when every condition holds".
func ReadOnlyWhen(when ...Condition) Effect { return effect.ReadOnlyWhen(when...) }

// WritesWhen is the effect "writes but destroys nothing when every condition holds".
func WritesWhen(when ...Condition) Effect { return effect.WritesWhen(when...) }

// Kind names an effect: "runs_code" (whatever else it does, it runs workspace code),
// "read_only", "write" or "destructive".
func (a Annotations) Kind() string {
	switch {
	case a.RunsCodeHint:
		return "runs_code"
	case a.ReadOnlyHint:
		return "read_only"
	case a.DestructiveHint:
		return "destructive"
	}
	return "write"
}

// EffectOf returns the annotations of one call with this input: those of the first
// effect whose conditions all hold, else the static annotations. Only ReadOnlyHint,
// DestructiveHint and RunsCodeHint change. index is the effect's position, or -1.
func (s *Spec) EffectOf(input map[string]any) (a Annotations, index int) {
	a = s.Annotations
	for i, e := range s.Effects {
		all := true
		for _, c := range e.When {
			if !c.Holds(input) {
				all = false
				break
			}
		}
		if all {
			a.ReadOnlyHint, a.DestructiveHint, a.RunsCodeHint = e.ReadOnly, e.Destructive, e.RunsCode
			return a, i
		}
	}
	return a, -1
}

// CheckEffects reports the first effect that names a property the input schema does
// not have, uses an unknown test, or claims more than the static annotations (an effect
// may only narrow them).
func (s *Spec) CheckEffects() error {
	if s.Annotations.RunsCodeHint && s.Annotations.ReadOnlyHint {
		return fmt.Errorf("tool %s: a tool that runs workspace code is not read-only", s.Name)
	}
	if len(s.Effects) > 0 && s.Annotations.ReadOnlyHint {
		return fmt.Errorf("tool %s: a read-only tool has no effects to declare", s.Name)
	}
	for i, e := range s.Effects {
		if len(e.When) == 0 {
			return fmt.Errorf("tool %s: effect %d has no condition", s.Name, i+1)
		}
		if e.ReadOnly && e.Destructive {
			return fmt.Errorf("tool %s: effect %d is both read-only and destructive", s.Name, i+1)
		}
		if e.Destructive && !s.Annotations.DestructiveHint {
			return fmt.Errorf("tool %s: effect %d is destructive but the tool's annotations are not", s.Name, i+1)
		}
		if e.RunsCode && (e.ReadOnly || !s.Annotations.RunsCodeHint) {
			return fmt.Errorf("tool %s: effect %d runs workspace code but is read-only or the tool's annotations do not", s.Name, i+1)
		}
		for _, c := range e.When {
			if s.InputSchema == nil || s.InputSchema.Properties[c.Property] == nil {
				return fmt.Errorf("tool %s: effect %d: %q is not an input property", s.Name, i+1, c.Property)
			}
			switch c.Is {
			case Unset, Set:
			case Equals:
				if c.Value == nil {
					return fmt.Errorf("tool %s: effect %d: %s equals nothing", s.Name, i+1, c.Property)
				}
			default:
				return fmt.Errorf("tool %s: effect %d: %s: test %q is not unset, set or equals", s.Name, i+1, c.Property, c.Is)
			}
		}
	}
	return nil
}
