package shell

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// The keywords of corpus §2.1's value forms, for a native Input's AdjustSchema: each puts
// on the named properties what the legacy flag puts in the adapter's schema (see
// commands/convention), so the twin schemas stay equal and the kernel refuses a
// malformed value before the handler runs. A property that is an array gets the
// keyword on its items. A name that is no property panics: a programming error, caught
// by any test that loads the registry.

// WUIDs gives the properties the WU-<number> pattern.
func WUIDs(s *jsonschema.Schema, props ...string) { pattern(s, delivery.WUIDPattern, props) }

// PlanIDs gives the properties the pattern of what a plan belongs to (WU-<n> or
// INIT-<id>).
func PlanIDs(s *jsonschema.Schema, props ...string) { pattern(s, delivery.PlanIDPattern, props) }

// MemoryIDs gives the properties the mem-xxxx pattern.
func MemoryIDs(s *jsonschema.Schema, props ...string) {
	pattern(s, delivery.MemoryIDPattern, props)
}

// Dates gives the properties the YYYY-MM-DD pattern.
func Dates(s *jsonschema.Schema, props ...string) { pattern(s, delivery.DatePattern, props) }

// Durations gives the properties the DURATION pattern (30m, 24h, 7d).
func Durations(s *jsonschema.Schema, props ...string) {
	pattern(s, delivery.DurationPattern, props)
}

// Range bounds an integer property (nil: open), as convention.Int's range.
func Range(s *jsonschema.Schema, prop string, lo, hi *int) {
	p := property(s, prop)
	if lo != nil {
		p.Minimum = jsonschema.Ptr(float64(*lo))
	}
	if hi != nil {
		p.Maximum = jsonschema.Ptr(float64(*hi))
	}
}

// Choices limits a property (or an array's items) to words, as convention.Enum and
// convention.Enums do.
func Choices(s *jsonschema.Schema, prop string, words ...string) {
	p := values(property(s, prop))
	p.Enum = nil
	for _, w := range words {
		p.Enum = append(p.Enum, w)
	}
}

func pattern(s *jsonschema.Schema, re string, props []string) {
	for _, prop := range props {
		values(property(s, prop)).Pattern = re
	}
}

func property(s *jsonschema.Schema, prop string) *jsonschema.Schema {
	p := s.Properties[prop]
	if p == nil {
		panic(fmt.Sprintf("shell: the input schema has no property %q", prop))
	}
	return p
}

// values is the schema each value of p must meet: its items for an array.
func values(p *jsonschema.Schema) *jsonschema.Schema {
	if p.Type == "array" && p.Items != nil {
		return p.Items
	}
	return p
}

// NonEmpty requires at least one item of each list property, as the adapter's schema
// does for a required repeatable flag (an empty list passes no flag).
func NonEmpty(s *jsonschema.Schema, props ...string) {
	for _, prop := range props {
		property(s, prop).MinItems = jsonschema.Ptr(1)
	}
}

// MinLength gives the string properties minLength n, as convention.NonEmpty (n = 1) and
// convention.Keywords do.
func MinLength(s *jsonschema.Schema, n int, props ...string) {
	for _, prop := range props {
		values(property(s, prop)).MinLength = jsonschema.Ptr(n)
	}
}

// MaxLength gives the string properties maxLength n, as convention.Keywords does.
func MaxLength(s *jsonschema.Schema, n int, props ...string) {
	for _, prop := range props {
		values(property(s, prop)).MaxLength = jsonschema.Ptr(n)
	}
}

// NonBlank gives the properties delivery.NonBlankPattern, as convention.NonBlank does.
func NonBlank(s *jsonschema.Schema, props ...string) {
	pattern(s, delivery.NonBlankPattern, props)
}

// Pattern gives the properties a pattern, as convention.Keywords does.
func Pattern(s *jsonschema.Schema, re string, props ...string) { pattern(s, re, props) }
