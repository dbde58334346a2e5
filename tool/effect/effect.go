package effect

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// Is says how a [Condition] tests its property.
type Is string

// Condition tests.
const (
	// Unset: the property is absent, null, false or an empty list — what the argv
	// builder omits (corpus §2.6: false is the same as absent).
	Unset Is = "unset"
	// Set: the property holds anything else.
	Set Is = "set"
	// Equals: the property equals Value (JSON equality).
	Equals Is = "equals"
)

// Condition is one test over a call's input object.
type Condition struct {
	Property string `json:"property"`
	Is       Is     `json:"is"`
	Value    any    `json:"value,omitempty"`
}

// IsUnset, IsSet and IsEqual build conditions.
func IsUnset(property string) Condition { return Condition{Property: property, Is: Unset} }

// IsSet is the condition that property holds a value the argv builder passes on.
func IsSet(property string) Condition { return Condition{Property: property, Is: Set} }

// IsEqual is the condition that property equals v.
func IsEqual(property string, v any) Condition {
	return Condition{Property: property, Is: Equals, Value: v}
}

// Effect is what a call does when every condition of When holds: read-only, writing,
// or destructive, and whether it runs workspace code. Effects only ever narrow a spec's
// static annotations, which stay the worst case: an effect is never destructive (nor
// runs code) when the spec is not (does not), and a read-only spec has no effects. An
// effect that leaves RunsCode false says the call runs no workspace code (wu:done
// --skip-gates).
type Effect struct {
	When        []Condition `json:"when"`
	ReadOnly    bool        `json:"read_only"`
	Destructive bool        `json:"destructive"`
	RunsCode    bool        `json:"runs_code,omitempty"`
}

// ReadOnlyWhen is the effect "read-only when every condition holds".
func ReadOnlyWhen(when ...Condition) Effect { return Effect{When: when, ReadOnly: true} }

// WritesWhen is the effect "writes but destroys nothing when every condition holds".
func WritesWhen(when ...Condition) Effect { return Effect{When: when} }

// Holds reports whether c holds for input (a decoded JSON object).
func (c Condition) Holds(input map[string]any) bool {
	v, present := input[c.Property]
	unset := !present || v == nil || v == false
	if list, ok := v.([]any); ok && len(list) == 0 {
		unset = true
	}
	switch c.Is {
	case Unset:
		return unset
	case Set:
		return !unset
	case Equals:
		return present && jsonEqual(v, c.Value)
	}
	return false
}

// String is the condition as a person reads it: "without fix", "with dry_run",
// `with action="resume"`.
func (c Condition) String() string {
	switch c.Is {
	case Unset:
		return "without " + c.Property
	case Set:
		return "with " + c.Property
	}
	b, _ := json.Marshal(c.Value)
	return "with " + c.Property + "=" + string(b)
}

// Describe is the effect's conditions as a person reads them ("without fix and without
// dry_run").
func (e Effect) Describe() string {
	out := ""
	for i, c := range e.When {
		if i > 0 {
			out += " and "
		}
		out += c.String()
	}
	return out
}

// jsonEqual compares two values as JSON: a decoded input (float64, map[string]any)
// against a declared value of any Go type.
func jsonEqual(a, b any) bool {
	norm := func(v any) any {
		raw, err := json.Marshal(v)
		if err != nil {
			return v
		}
		var out any
		_ = json.Unmarshal(raw, &out)
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

// Declared is what one command declares it does (cmdbridge.Effects, legacy.Effects). The zero Effects declares
// a command that writes but destroys nothing.
type Declared struct {
	// ReadOnly: the command never writes.
	ReadOnly bool `json:"read_only,omitempty"`
	// Destructive: the command may delete or overwrite data.
	Destructive bool `json:"destructive,omitempty"`
	// Idempotent: repeating a call with the same input changes nothing more.
	Idempotent bool `json:"idempotent,omitempty"`
	// OpenWorld: the command reaches beyond the workspace's own data.
	OpenWorld bool `json:"open_world,omitempty"`
	// Network: the command may reach the network (implies OpenWorld).
	Network bool `json:"network,omitempty"`
	// RunsCode: the command runs code the workspace defines or the caller passes, as
	// processes of their own (implies OpenWorld, excludes ReadOnly).
	RunsCode bool `json:"runs_code,omitempty"`
	// Inputs narrow the effect for the inputs they describe (a dry run is read-only),
	// as a tool spec's input effects do; the fields above stay the worst case.
	Inputs []Effect `json:"inputs,omitempty"`
	// Paths names the inputs (by property: data_dir for --data-dir) that name files or
	// directories the command reads or writes, each "read" or "write": the kernel holds
	// their values to the caller's read or write scopes, and keeps them out of
	// cmdbridge's state and the repository's .git, before the command runs. An input
	// not named here is passed as given: a program's own path flag left out can reach
	// any file the program can. "none" says an input whose name speaks of paths names
	// none the command opens (a path recorded as data, a glob it only matches): it is
	// passed as given, and the warning such a name gets when undeclared is not given.
	// "read-url" and "write-url" declare a URL input whose file: or sqlite: URLs name a
	// file (--url file:app.db): their path is held to the scopes, any other value as it
	// is written.
	Paths map[string]string `json:"paths,omitempty"`
}

// NotOpened is the access of a [Declared.Paths] input that names no file the command
// opens; ReadURL and WriteURL those of a URL input whose file: and sqlite: URLs name a
// file the command reads or writes.
const (
	NotOpened = "none"
	ReadURL   = "read-url"
	WriteURL  = "write-url"
)

// accesses are the values of [Declared.Paths].
var accesses = []string{"read", "write", ReadURL, WriteURL, NotOpened}

// Check refuses what no command can be: read-only and destructive, read-only and
// running workspace code.
func (e Declared) Check() error {
	switch {
	case e.ReadOnly && e.Destructive:
		return fmt.Errorf("read-only and destructive at once")
	case e.ReadOnly && e.RunsCode:
		return fmt.Errorf("read-only but runs workspace code")
	case e.ReadOnly && len(e.Inputs) > 0:
		return fmt.Errorf("read-only with inputs that narrow it (a read-only command has none)")
	}
	for prop, access := range e.Paths {
		switch {
		case !slices.Contains(accesses, access):
			return fmt.Errorf("path input %s: access %q is not read, write, read-url, write-url or none", prop, access)
		case (access == "write" || access == WriteURL) && e.ReadOnly:
			return fmt.Errorf("read-only but path input %s is written", prop)
		}
	}
	return nil
}
