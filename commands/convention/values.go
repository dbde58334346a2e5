package convention

import (
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Value is a flag value whose accepted form is one of corpus §2.1's types. Expected names
// that form for the canonical usage message: invalid value "<v>" for --<x>: expected <…>.
type Value interface {
	flag.Value
	Expected() string
}

// invalidValue is the error a typed value's Set returns; argv checking turns it into the
// canonical usage message.
type invalidValue struct{ expected string }

func (e invalidValue) Error() string { return "expected " + e.expected }

// EnumValue accepts one of a fixed list of words (spec type a|b|c). It implements
// legacy.Choices, so the adapter's schema derivation emits a JSON Schema enum.
type EnumValue struct {
	choices []string
	value   string
}

// Choices lists the accepted words in declaration order.
func (e *EnumValue) Choices() []string { return append([]string(nil), e.choices...) }

// Set accepts exactly one of the choices.
func (e *EnumValue) Set(s string) error {
	for _, c := range e.choices {
		if s == c {
			e.value = s
			return nil
		}
	}
	return invalidValue{e.Expected()}
}

func (e *EnumValue) String() string { return e.value }

// Expected is "one of a, b, c".
func (e *EnumValue) Expected() string { return oneOf(e.choices) }

// oneOf is the expected form of an enum, for the canonical usage message.
func oneOf(choices []string) string { return "one of " + strings.Join(choices, ", ") }

// Enum declares an optional flag accepting one of choices, def being its default ("" for
// none).
func Enum(name, usage, def string, choices ...string) *cli.GenericFlag {
	return &cli.GenericFlag{
		Name:  name,
		Usage: fmt.Sprintf("%s (%s)", usage, strings.Join(choices, "|")),
		Value: &EnumValue{choices: choices, value: def},
	}
}

// Enums declares a repeatable flag (spec type a|b|c[]) whose every value must be one of
// choices: --status ready --status blocked. Any other value is a usage error found in
// the argv phase. It stays a cli.StringSliceFlag so the tool input is an array (spec
// §2.6); the choices are checked by its Action, which argv checking calls once per value
// with a nil context, and they are listed in the usage text.
func Enums(name, usage string, choices ...string) *cli.StringSliceFlag {
	choices = append([]string(nil), choices...)
	return legacy.Constrain(&cli.StringSliceFlag{
		Name:  name,
		Usage: fmt.Sprintf("%s (repeatable; %s)", usage, strings.Join(choices, "|")),
		Action: func(_ *cli.Context, values []string) error {
			for _, v := range values {
				if !slices.Contains(choices, v) {
					return invalidValue{oneOf(choices)}
				}
			}
			return nil
		},
	}, func(s *jsonschema.Schema) {
		for _, c := range choices {
			s.Items.Enum = append(s.Items.Enum, c)
		}
	})
}

// Repeated declares a repeatable flag (spec type T[]) whose every value must match
// pattern, such as WU[] or MEM[]. A bad value is the usage error `invalid value "<v>" for
// --<name>: expected <expected>`, found in the argv phase like any other flag value; the
// pattern is the schema's for every item.
func Repeated(name, usage, expected, pattern string) *cli.StringSliceFlag {
	re := regexp.MustCompile(pattern)
	return legacy.Constrain(&cli.StringSliceFlag{
		Name:  name,
		Usage: usage,
		Action: func(_ *cli.Context, values []string) error {
			for _, v := range values {
				if !re.MatchString(v) {
					return invalidValue{expected}
				}
			}
			return nil
		},
	}, func(s *jsonschema.Schema) { s.Items.Pattern = pattern })
}

// patternValue accepts strings matching a regular expression.
type patternValue struct {
	re       *regexp.Regexp
	expected string
	value    string
}

func (p *patternValue) Set(s string) error {
	if !p.re.MatchString(s) {
		return invalidValue{p.expected}
	}
	p.value = s
	return nil
}

func (p *patternValue) String() string   { return p.value }
func (p *patternValue) Expected() string { return p.expected }

// Constrain puts the pattern in the flag's property schema (legacy.Constrained).
func (p *patternValue) Constrain(s *jsonschema.Schema) { s.Pattern = p.re.String() }

var (
	dateRE     = regexp.MustCompile(delivery.DatePattern)
	durationRE = regexp.MustCompile(delivery.DurationPattern)
	wuRE       = regexp.MustCompile(delivery.WUIDPattern)
	memRE      = regexp.MustCompile(delivery.MemoryIDPattern)
)

// DateValue is a DATE (YYYY-MM-DD) that is also a real calendar day.
type DateValue struct{ patternValue }

// Set accepts YYYY-MM-DD naming a real day.
func (d *DateValue) Set(s string) error {
	if _, err := time.Parse(time.DateOnly, s); err != nil || !dateRE.MatchString(s) {
		return invalidValue{d.expected}
	}
	d.value = s
	return nil
}

// Time returns the date at 00:00 UTC, or the zero time when unset.
func (d *DateValue) Time() time.Time {
	t, _ := time.Parse(time.DateOnly, d.value)
	return t
}

// Date declares a DATE flag.
func Date(name, usage string) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Usage: usage + " (YYYY-MM-DD)",
		Value: &DateValue{patternValue{re: dateRE, expected: "YYYY-MM-DD date"}}}
}

// DurationValue is a DURATION: <int><unit>, unit one of s m h d w, that a
// time.Duration can hold (delivery.ParseDuration).
type DurationValue struct{ patternValue }

// Set accepts a DURATION whose length fits in a time.Duration.
func (d *DurationValue) Set(s string) error {
	if _, err := delivery.ParseDuration(s); err != nil {
		return invalidValue{d.expected}
	}
	d.value = s
	return nil
}

// Duration returns the parsed length, 0 when unset.
func (d *DurationValue) Duration() time.Duration {
	n, _ := delivery.ParseDuration(d.value)
	return n
}

// ParseDuration parses corpus §2.1's DURATION form (30m, 24h, 7d, 2w).
func ParseDuration(s string) (time.Duration, bool) {
	n, err := delivery.ParseDuration(s)
	return n, err == nil
}

// Duration declares a DURATION flag with a default ("" for none).
func Duration(name, usage, def string) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Usage: usage + " (e.g. 30m, 24h, 7d)",
		Value: &DurationValue{patternValue{re: durationRE, expected: "duration like 30m, 24h or 7d", value: def}}}
}

// WU declares a flag holding a work-unit id (WU-<n>).
func WU(name, usage string, required bool) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Usage: usage + " (WU-<n>)", Required: required,
		Value: &patternValue{re: wuRE, expected: "WU-<number>"}}
}

// WUs declares a repeatable flag of work-unit ids (WU[]).
func WUs(name, usage string, required bool) *cli.StringSliceFlag {
	f := Repeated(name, usage, "WU-<number>", delivery.WUIDPattern)
	f.Required = required
	return f
}

// MEM declares a flag holding a memory node id (mem-xxxx).
func MEM(name, usage string, required bool) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Usage: usage + " (mem-xxxx)", Required: required,
		Value: &patternValue{re: memRE, expected: "memory id like mem-1a2b"}}
}

// Int declares an INT flag with its default and an optional inclusive range (nil bounds
// are open). The range is part of the type: a value outside it is a usage error (exit 2).
// The check lives in the flag's Action, which argv checking also calls with a nil
// context, so an Action on an Int flag must be a pure function of the value.
func Int(name, usage string, def int, lo, hi *int) *cli.IntFlag {
	f := &cli.IntFlag{Name: name, Usage: usage, Value: def}
	if lo == nil && hi == nil {
		return f
	}
	expected := "integer"
	switch {
	case lo != nil && hi != nil:
		expected = fmt.Sprintf("integer from %d to %d", *lo, *hi)
	case lo != nil:
		expected = fmt.Sprintf("integer >= %d", *lo)
	default:
		expected = fmt.Sprintf("integer <= %d", *hi)
	}
	f.Usage = fmt.Sprintf("%s (%s)", usage, expected)
	f.Action = func(_ *cli.Context, v int) error {
		if (lo != nil && v < *lo) || (hi != nil && v > *hi) {
			return invalidValue{expected}
		}
		return nil
	}
	return legacy.Constrain(f, func(s *jsonschema.Schema) {
		if lo != nil {
			s.Minimum = jsonschema.Ptr(float64(*lo))
		}
		if hi != nil {
			s.Maximum = jsonschema.Ptr(float64(*hi))
		}
	})
}

// Bound returns a pointer to n, for Int's range bounds.
func Bound(n int) *int { return &n }

// Keywords attaches to a STRING flag the schema keywords of what the action checks of
// its value beyond argv (a length, a form), so the kernel refuses on every lane what the
// command would refuse with VALIDATION (docs/schemas.md, "What a schema says"). Give 0
// for no minLength or maxLength and "" for no pattern.
func Keywords(f *cli.StringFlag, minLength, maxLength int, pattern string) *cli.StringFlag {
	return legacy.Constrain(f, func(s *jsonschema.Schema) {
		if minLength > 0 {
			s.MinLength = jsonschema.Ptr(minLength)
		}
		if maxLength > 0 {
			s.MaxLength = jsonschema.Ptr(maxLength)
		}
		if pattern != "" {
			s.Pattern = pattern
		}
	})
}

// NonEmpty is a STRING flag the action refuses empty: minLength 1.
func NonEmpty(f *cli.StringFlag) *cli.StringFlag { return Keywords(f, 1, 0, "") }

// NonBlank is a STRING flag the action refuses blank (empty once trimmed): the pattern
// delivery.NonBlankPattern.
func NonBlank(f *cli.StringFlag) *cli.StringFlag {
	return Keywords(f, 0, 0, delivery.NonBlankPattern)
}
