package kernel

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Profile is a named subset of the tools, for one step of an agent loop (a review step
// that may only read, an edit step that may write). A tool belongs to a profile when it
// matches one of Tools (every tool when Tools is empty) and every annotation filter that
// is set. A profile selects; it never grants: governance still refuses what it refuses.
type Profile struct {
	Description string `json:"description" yaml:"description"`
	// Tools are names in any spelling or doublestar globs over canonical names ("wu:*").
	// Each entry must match at least one tool, so a typo is an error, not an empty step.
	Tools []string `json:"tools,omitempty" yaml:"tools,omitempty"`
	// ReadOnly, when set, keeps only the tools whose readOnlyHint equals it.
	ReadOnly *bool `json:"read_only,omitempty" yaml:"read_only,omitempty"`
	// Destructive, when set, keeps only the tools whose destructiveHint equals it.
	Destructive *bool `json:"destructive,omitempty" yaml:"destructive,omitempty"`
	// Require lists the tools (any spelling, no globs) the step must be able to call. It
	// is a check, not a selector: a required tool that does not exist, that the profile
	// (or View.Tools) leaves out, or that governance refuses fails New.
	Require []string `json:"require,omitempty" yaml:"require,omitempty"`
}

// View narrows the tools a kernel serves. The zero View serves every tool. Profile and
// Tools combine by intersection: a tool is visible when the profile selects it AND one
// of the Tools patterns matches it, so adding a flag never widens a profile. Tools
// outside the view are hidden from Tools and the manifest and refused with TOOL_DISABLED
// when called by any spelling.
type View struct {
	// Profile names a profile of Config.Profiles or a built-in one (BuiltinProfiles).
	Profile string
	// Tools are names in any spelling or doublestar globs over canonical names; each
	// must match at least one tool. Several patterns are a union.
	Tools []string
}

// Empty reports whether v is the zero view (every tool).
func (v View) Empty() bool { return v.Profile == "" && len(v.Tools) == 0 }

// BuiltinProfiles are the profiles every kernel knows; Config.Profiles may replace them
// by name.
//
//   - read-only: every tool whose annotations say readOnlyHint.
//   - non-destructive: every tool whose annotations do not say destructiveHint.
func BuiltinProfiles() map[string]Profile {
	yes, no := true, false
	return map[string]Profile{
		"read-only": {
			Description: "every tool whose annotations say readOnlyHint (inspect, never change)",
			ReadOnly:    &yes,
		},
		"non-destructive": {
			Description: "every tool whose annotations do not say destructiveHint",
			Destructive: &no,
		},
	}
}

// Profiles returns the built-in profiles with cfg.Profiles laid over them (a configured
// profile replaces a built-in one of the same name).
func Profiles(cfg Config) map[string]Profile {
	out := BuiltinProfiles()
	for name, p := range cfg.Profiles {
		out[name] = p
	}
	return out
}

// ProfileNames returns the names of Profiles(cfg), sorted.
func ProfileNames(cfg Config) []string {
	all := Profiles(cfg)
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// viewSet is the resolved View of a kernel: nil means every tool.
type viewSet struct {
	label   string // "profile review", "tools wu:*", "profile review and tools wu:*"
	visible map[string]bool
}

// buildView resolves Config.View after the registry and governance are built.
func (k *Kernel) buildView() error {
	v := k.cfg.View
	if v.Empty() {
		return nil
	}
	var labels []string
	var visible map[string]bool
	var profile Profile
	if v.Profile != "" {
		var ok bool
		if profile, ok = Profiles(k.cfg)[v.Profile]; !ok {
			return fmt.Errorf("unknown profile %q (known: %s)", v.Profile, strings.Join(ProfileNames(k.cfg), ", "))
		}
		sel, err := k.selectProfile(profile)
		if err != nil {
			return fmt.Errorf("profile %s: %w", v.Profile, err)
		}
		visible = sel
		labels = append(labels, "profile "+v.Profile)
	}
	if len(v.Tools) > 0 {
		sel, err := k.matchTools(v.Tools)
		if err != nil {
			return fmt.Errorf("tools: %w", err)
		}
		if visible == nil {
			visible = sel
		} else {
			for name := range visible {
				if !sel[name] {
					delete(visible, name)
				}
			}
		}
		labels = append(labels, "tools "+strings.Join(v.Tools, ","))
	}
	label := strings.Join(labels, " and ")
	if len(visible) == 0 {
		return fmt.Errorf("%s selects no tool", label)
	}
	for _, r := range profile.Require {
		name, ok := k.names.Resolve(r)
		if !ok {
			return fmt.Errorf("profile %s requires unknown tool %q", v.Profile, r)
		}
		if !visible[name] {
			return fmt.Errorf("profile %s requires %s, but %s leaves it out", v.Profile, name, label)
		}
		if why := k.govern(name); why != "" {
			return fmt.Errorf("profile %s requires %s, but governance refuses it: %s", v.Profile, name, why)
		}
	}
	k.view = &viewSet{label: label, visible: visible}
	return nil
}

// selectProfile returns the tools p selects.
func (k *Kernel) selectProfile(p Profile) (map[string]bool, error) {
	var sel map[string]bool
	if len(p.Tools) > 0 {
		var err error
		if sel, err = k.matchTools(p.Tools); err != nil {
			return nil, err
		}
	} else {
		sel = make(map[string]bool, len(k.entries))
		for name := range k.entries {
			sel[name] = true
		}
	}
	for name := range sel {
		a := k.entries[name].spec.Annotations
		if (p.ReadOnly != nil && a.ReadOnlyHint != *p.ReadOnly) || (p.Destructive != nil && a.DestructiveHint != *p.Destructive) {
			delete(sel, name)
		}
	}
	return sel, nil
}

// matchTools returns the union of the tools each pattern matches; a pattern that is not
// a valid glob or matches nothing is an error.
func (k *Kernel) matchTools(patterns []string) (map[string]bool, error) {
	sel := map[string]bool{}
	for _, pattern := range patterns {
		// Only a pattern without glob characters is a spelling: "wu:c*" must not
		// resolve to a tool whose folded key happens to be "wuc".
		if !strings.ContainsAny(pattern, "*?[{\\") {
			name, ok := k.names.Resolve(pattern)
			if !ok {
				return nil, fmt.Errorf("unknown tool %q", pattern)
			}
			sel[name] = true
			continue
		}
		if !doublestar.ValidatePattern(pattern) {
			return nil, fmt.Errorf("%q is not a valid glob", pattern)
		}
		n := 0
		for _, name := range k.names.All() {
			if ok, _ := doublestar.Match(pattern, name); ok {
				sel[name] = true
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("%q matches no tool", pattern)
		}
	}
	return sel, nil
}

// inView reports whether name is visible through the kernel's view.
func (k *Kernel) inView(name string) bool {
	return k.view == nil || k.view.visible[name]
}

// ViewLabel describes the kernel's view ("profile review", "tools wu:*"), or "" when the
// kernel serves every tool.
func (k *Kernel) ViewLabel() string {
	if k.view == nil {
		return ""
	}
	return k.view.label
}
