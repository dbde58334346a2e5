// Package appspec is the description of a command-line program's command tree as
// plain, JSON-serialisable data: its commands, their flags (kind, names, usage, env
// sources, defaults), positionals' usage and help texts. It is the shape of urfave/cli
// v2's apps, which package apptree describes and rebuilds exactly; a program written with
// another framework (package cobrabridge) describes itself in it too, so the host serves
// any of them the same way. It imports the standard library only.
//
// Invariants:
//   - No func value and no secret: a description is data a program prints of itself.
//   - A reader refuses a description of a newer Format than its own.
package appspec

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
)

// Format is the version of the description's shape; a reader refuses a newer one.
const Format = 1

// MetaPrefix begins the keys of an app's metadata that declare it to the toolkit
// (package tool/legacy names them); [Tree.Meta] holds those and no other.
const MetaPrefix = "cmdbridge."

// MetaArgTypes is the key (tool/legacy's MetaArgTypes) under which a command declares
// the JSON types of its typed positionals: a map of positional name to "integer" or
// "number". A framework with typed arguments (urfave/cli v3) sets it in [Command.Meta].
const MetaArgTypes = MetaPrefix + "arg_types"

// MetaTrimmedFlags is the key (tool/legacy's MetaTrimmedFlags) under which a leaf (in
// its [Command.Meta], or [Tree.Meta] for an app without subcommands) names the string
// flags whose values the program trims of white space (urfave/cli v3's
// StringConfig.TrimSpace): a list of flag names.
const MetaTrimmedFlags = MetaPrefix + "trimmed_flags"

// MetaHelpWords is the key (tool/legacy's MetaHelpWords) under which a leaf declares,
// in [Command.Meta] ([Tree.Meta] for an app without subcommands), the words it answers
// with its help when one is its first positional (urfave/cli v3's "help" and "h").
const MetaHelpWords = MetaPrefix + "help_words"

// MetaSliceSeparators is the key (tool/legacy's MetaSliceSeparators) under which a
// command declares, in [Command.Meta], every separator at which the program splits the
// values of its string list flags, when that is not the app's alone: urfave/cli v3
// splits a flag at the separator of the command that parses it.
const MetaSliceSeparators = MetaPrefix + "slice_separators"

// Tree describes an app: JSON-serialisable (encoding/json), no func values.
type Tree struct {
	Format int `json:"format"`

	Name                      string `json:"name,omitempty"`
	HelpName                  string `json:"help_name,omitempty"`
	Usage                     string `json:"usage,omitempty"`
	UsageText                 string `json:"usage_text,omitempty"`
	Args                      bool   `json:"args,omitempty"`
	ArgsUsage                 string `json:"args_usage,omitempty"`
	Version                   string `json:"version,omitempty"`
	Description               string `json:"description,omitempty"`
	DefaultCommand            string `json:"default_command,omitempty"`
	Copyright                 string `json:"copyright,omitempty"`
	CustomAppHelpTemplate     string `json:"custom_app_help_template,omitempty"`
	SliceFlagSeparator        string `json:"slice_flag_separator,omitempty"`
	DisableSliceFlagSeparator bool   `json:"disable_slice_flag_separator,omitempty"`
	HideHelp                  bool   `json:"hide_help,omitempty"`
	HideHelpCommand           bool   `json:"hide_help_command,omitempty"`
	HideVersion               bool   `json:"hide_version,omitempty"`
	EnableBashCompletion      bool   `json:"enable_bash_completion,omitempty"`
	UseShortOptionHandling    bool   `json:"use_short_option_handling,omitempty"`
	Suggest                   bool   `json:"suggest,omitempty"`
	SkipFlagParsing           bool   `json:"skip_flag_parsing,omitempty"`
	HasAction                 bool   `json:"has_action,omitempty"`
	// Package is where the app's own action lives (see [Command.Package]).
	Package  string    `json:"package,omitempty"`
	Flags    []Flag    `json:"flags,omitempty"`
	Commands []Command `json:"commands,omitempty"`
	// Meta are the toolkit's declarations an app makes of itself (the keys that begin
	// with [MetaPrefix] of urfave/cli v2's App.Metadata, where a program without
	// subcommands declares its effects, positionals' choices and descriptions, and the
	// rules between its inputs), each value as JSON; the rebuilt app holds them decoded
	// (objects, lists, strings, numbers, booleans).
	Meta map[string]json.RawMessage `json:"meta,omitempty"`

	// Warnings name what could not be described exactly (flags of types that
	// are not urfave/cli v2's own).
	Warnings []string `json:"warnings,omitempty"`
}

// Command describes a *cli.Command.
type Command struct {
	Name                   string   `json:"name"`
	Aliases                []string `json:"aliases,omitempty"`
	Usage                  string   `json:"usage,omitempty"`
	UsageText              string   `json:"usage_text,omitempty"`
	Description            string   `json:"description,omitempty"`
	Args                   bool     `json:"args,omitempty"`
	ArgsUsage              string   `json:"args_usage,omitempty"`
	Category               string   `json:"category,omitempty"`
	Hidden                 bool     `json:"hidden,omitempty"`
	HideHelp               bool     `json:"hide_help,omitempty"`
	HideHelpCommand        bool     `json:"hide_help_command,omitempty"`
	SkipFlagParsing        bool     `json:"skip_flag_parsing,omitempty"`
	UseShortOptionHandling bool     `json:"use_short_option_handling,omitempty"`
	HelpName               string   `json:"help_name,omitempty"`
	CustomHelpTemplate     string   `json:"custom_help_template,omitempty"`
	HasAction              bool     `json:"has_action,omitempty"`
	// Package is the import path of the package the command's run code lives in, when
	// a framework's description knows it (cobra's RunE, v3's Action): a tier table's
	// package verdict judges the command by it.
	Package     string    `json:"package,omitempty"`
	Flags       []Flag    `json:"flags,omitempty"`
	Subcommands []Command `json:"subcommands,omitempty"`
	// Meta are the toolkit's declarations a framework's description makes of the
	// command (keys beginning with [MetaPrefix], values as JSON), as [Tree.Meta] for an
	// app: the types of a v3 command's typed arguments, say.
	Meta map[string]json.RawMessage `json:"meta,omitempty"`
}

// Flag describes one urfave/cli v2 flag. Kind names the concrete type; Value
// holds the default value in a kind-specific JSON form:
//
//	bool                      true / false
//	string, path, generic     a string (generic: Value.String()); absent for a nil generic Value
//	int, int64, uint, uint64  an integer
//	float64                   a number ("NaN", "+Inf", "-Inf" as strings)
//	duration                  integer nanoseconds
//	timestamp                 {"time": RFC 3339 with nanoseconds, "zone": name, "offset": seconds east of UTC};
//	                          {} for a Timestamp without a time; absent for a nil Value
//	*-slice                   an array of the element form; absent for a nil Value
type Flag struct {
	Kind               string          `json:"kind"`
	Name               string          `json:"name"`
	Aliases            []string        `json:"aliases,omitempty"`
	Usage              string          `json:"usage,omitempty"`
	EnvVars            []string        `json:"env_vars,omitempty"`
	FilePath           string          `json:"file_path,omitempty"`
	Required           bool            `json:"required,omitempty"`
	Hidden             bool            `json:"hidden,omitempty"`
	TakesFile          bool            `json:"takes_file,omitempty"`
	Category           string          `json:"category,omitempty"`
	DefaultText        string          `json:"default_text,omitempty"`
	DisableDefaultText bool            `json:"disable_default_text,omitempty"`
	Base               int             `json:"base,omitempty"`
	KeepSpace          bool            `json:"keep_space,omitempty"`
	Layout             string          `json:"layout,omitempty"`
	Timezone           string          `json:"timezone,omitempty"`
	Value              json.RawMessage `json:"value,omitempty"`
	// Choices is set (possibly empty) when a generic flag's value has a
	// Choices() []string method.
	Choices *[]string `json:"choices,omitempty"`
	// Unknown is the Go type of a flag whose type is not one of urfave/cli v2's (its
	// Kind then says how it is described: "generic", a string, or "bool").
	Unknown string `json:"unknown,omitempty"`
	// Described says how a flag another framework declares (cobra, urfave/cli v3) is
	// described where no kind says it exactly ("pflag count: a switch: given, it counts
	// once"): served with that warning.
	Described string `json:"described,omitempty"`
	// Target is the slice flag a "multi" flag (cli.MultiStringFlag, MultiIntFlag,
	// MultiInt64Flag, MultiFloat64Flag) wraps; Value is then the wrapper's default.
	Target *Flag `json:"target,omitempty"`
}

// CommandMeta is every command's [Command.Meta], decoded (objects, lists, strings,
// numbers, booleans), by the command's tool name: its path below the program joined
// with ":". A value that does not decode is left out. Nil when no command has any.
func (t *Tree) CommandMeta() map[string]map[string]any {
	var out map[string]map[string]any
	var walk func(path string, cs []Command)
	walk = func(path string, cs []Command) {
		for i := range cs {
			c := &cs[i]
			name := c.Name
			if path != "" {
				name = path + ":" + c.Name
			}
			for k, raw := range c.Meta {
				var v any
				if json.Unmarshal(raw, &v) != nil {
					continue
				}
				if out == nil {
					out = map[string]map[string]any{}
				}
				if out[name] == nil {
					out[name] = map[string]any{}
				}
				out[name][k] = v
			}
			walk(name, c.Subcommands)
		}
	}
	walk("", t.Commands)
	return out
}

// UnmarshalJSON decodes a description, refusing one of a newer Format (or of none).
func (t *Tree) UnmarshalJSON(b []byte) error {
	type plain Tree
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	if p.Format > Format {
		return fmt.Errorf("apptree: description format %d is newer than this reader's (%d)", p.Format, Format)
	}
	if p.Format < 1 {
		return fmt.Errorf("apptree: not an app description (format %d)", p.Format)
	}
	*t = Tree(p)
	return nil
}

// PackageOf is the import path of the package the first non-nil func among fs is
// declared in ("example.com/kit/app" for example.com/kit/app.newRoot.func1; for the main
// package, the build's main package path), "" when none is set or the runtime cannot
// say.
func PackageOf(fs ...any) string {
	for _, f := range fs {
		v := reflect.ValueOf(f)
		if !v.IsValid() || v.Kind() != reflect.Func || v.IsNil() {
			continue
		}
		fn := runtime.FuncForPC(v.Pointer())
		if fn == nil {
			return ""
		}
		name := fn.Name()
		slash := strings.LastIndexByte(name, '/')
		dot := strings.IndexByte(name[slash+1:], '.')
		if dot < 0 {
			return ""
		}
		if pkg := name[:slash+1+dot]; pkg != "main" {
			return pkg
		}
		// The runtime names the main package "main": its import path is the build's.
		if info, ok := debug.ReadBuildInfo(); ok && info.Path != "" {
			return info.Path
		}
		return "main"
	}
	return ""
}
