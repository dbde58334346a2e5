package convention

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// UsageError is an argv or environment problem (corpus §2.1): exit 2, nothing executed.
type UsageError struct{ Message string }

func (e *UsageError) Error() string { return e.Message }

func usagef(format string, args ...any) *UsageError {
	return &UsageError{Message: fmt.Sprintf(format, args...)}
}

// checked is what argv checking learned besides the first problem.
type checked struct {
	help bool
	json bool
}

// wantsJSON reports whether --json occurs in args before a "--" (corpus §2.2: usage errors
// are then reported in the envelope too).
func wantsJSON(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json", "-json", "--json=true", "-json=true":
			return true
		}
	}
	return false
}

// checkArgv applies corpus §2.1's checks in their order (environment, then argv left to
// right, then missing required flags and arguments in table order, then combination
// rules) and returns the first problem. args excludes the command name.
// envErr is the environment check's result (delivery.NewRuntime's USAGE error).
func checkArgv(s *Spec, flags []cli.Flag, args []string, envErr error) (checked, error) {
	res := checked{json: wantsJSON(args)}
	if envErr != nil {
		return res, envErr
	}
	byName := map[string]cli.Flag{}
	for _, f := range flags {
		for _, n := range f.Names() {
			byName[n] = f
		}
	}
	given := map[string]bool{}   // by primary name: the flag occurs in argv
	present := map[string]bool{} // given, and not a false boolean (false = absent, corpus §2.6)
	var positional []string
	passthrough := false
	for _, a := range s.Args {
		passthrough = passthrough || a.Passthrough
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if !passthrough {
				positional = append(positional, args[i+1:]...)
			}
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, args[i:]...)
			break
		}
		name := strings.TrimPrefix(a[1:], "-")
		value, hasValue := "", false
		if k := strings.IndexByte(name, '='); k >= 0 {
			name, value, hasValue = name[:k], name[k+1:], true
		}
		if name == "help" || name == "h" {
			if !hasValue || value == "true" {
				res.help = true
				return res, nil
			}
		}
		f, ok := byName[name]
		if name == "" || strings.HasPrefix(name, "-") || !ok {
			return res, usagef("unknown flag --%s", strings.TrimLeft(name, "-"))
		}
		primary := f.Names()[0]
		given[primary] = true
		if _, isBool := f.(*cli.BoolFlag); isBool {
			if hasValue && value != "true" && value != "false" {
				return res, usagef("invalid value %q for --%s: expected true or false", value, primary)
			}
			present[primary] = !hasValue || value == "true"
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return res, usagef("flag --%s requires a value", primary)
			}
			i++
			value = args[i]
		}
		if err := checkValue(f, value); err != nil {
			return res, usagef("invalid value %q for --%s: %s", value, primary, err.Error())
		}
		present[primary] = true
	}
	declared := 0
	for _, a := range s.Args {
		if !a.Passthrough {
			declared++
		}
	}
	// Positionals are still argv, so their values are checked left to right before any
	// missing required flag is reported.
	k := 0
	for _, a := range s.Args {
		if a.Passthrough {
			continue
		}
		if k >= len(positional) {
			break
		}
		if v := positional[k]; len(a.Choices) > 0 && !slices.Contains(a.Choices, v) {
			return res, usagef("invalid value %q for %s: expected %s", v, upper(a.Name), oneOf(a.Choices))
		}
		k++
	}
	if len(positional) > declared {
		return res, usagef("unexpected argument %q", positional[declared])
	}
	for _, f := range s.Flags {
		if rf, ok := f.(cli.RequiredFlag); ok && rf.IsRequired() && !given[f.Names()[0]] {
			return res, usagef("missing required flag --%s", f.Names()[0])
		}
	}
	k = 0
	for _, a := range s.Args {
		if a.Passthrough {
			continue
		}
		if a.Required && k >= len(positional) {
			return res, usagef("missing required argument %s", upper(a.Name))
		}
		k++
	}
	for _, r := range s.Rules {
		if err := r.check(present); err != nil {
			return res, err
		}
	}
	return res, nil
}

func (r Rule) check(present map[string]bool) error {
	switch r.kind {
	case ruleExclusive:
		if present[r.flags[0]] && present[r.flags[1]] {
			return usagef("flags --%s and --%s cannot be used together", r.flags[0], r.flags[1])
		}
	case ruleOneOf:
		for _, f := range r.flags {
			if present[f] {
				return nil
			}
		}
		return usagef("one of --%s is required", strings.Join(r.flags, ", --"))
	case ruleRequires:
		if len(r.values) == 0 && present[r.flags[0]] && !present[r.flags[1]] {
			return usagef("flag --%s requires --%s", r.flags[0], r.flags[1])
		}
	case ruleTogether:
		for _, ab := range [][2]string{{r.flags[0], r.flags[1]}, {r.flags[1], r.flags[0]}} {
			if present[ab[0]] && !present[ab[1]] {
				return usagef("flag --%s requires --%s", ab[0], ab[1])
			}
		}
	case ruleRequired:
		if !present[r.flags[0]] {
			return usagef("missing required flag --%s", r.flags[0])
		}
	}
	return nil
}

// checkValue validates one flag value against its declared type; the error text is what
// follows "expected" in the canonical message.
func checkValue(f cli.Flag, value string) error {
	switch f := f.(type) {
	case *cli.IntFlag:
		n, err := strconv.ParseInt(value, 10, strconv.IntSize)
		if err != nil {
			return invalidValue{"integer"}
		}
		if f.Action != nil {
			var iv invalidValue
			if err := f.Action(nil, int(n)); errors.As(err, &iv) {
				return iv
			} else if err != nil {
				return invalidValue{err.Error()}
			}
		}
	case *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag, *cli.IntSliceFlag, *cli.Int64SliceFlag:
		if _, err := strconv.ParseInt(value, 10, 64); err != nil {
			return invalidValue{"integer"}
		}
	case *cli.Float64Flag, *cli.Float64SliceFlag:
		if _, err := strconv.ParseFloat(value, 64); err != nil {
			return invalidValue{"number"}
		}
	case *cli.StringSliceFlag:
		// Each occurrence is one value (no comma splitting), checked alone: a typed
		// repeatable flag ([Enums]) carries its check in its Action, like [Int].
		if f.Action != nil {
			var iv invalidValue
			if err := f.Action(nil, []string{value}); errors.As(err, &iv) {
				return iv
			} else if err != nil {
				return invalidValue{err.Error()}
			}
		}
	case *cli.GenericFlag:
		if err := f.Value.Set(value); err != nil {
			var iv invalidValue
			if errors.As(err, &iv) {
				return iv
			}
			return invalidValue{err.Error()}
		}
	}
	return nil
}

func upper(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "-", "_")) }

func trimSpace(s string) string { return strings.TrimSpace(s) }
