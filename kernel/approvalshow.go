package kernel

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ShownInput is the call's input as the person asked to approve it should read it:
// one line per top-level property, "name: value" with the value as JSON, a value longer
// than max bytes cut with how much was left out — so that every property stays in
// sight however long one is — and every character that changes how text is displayed
// (bidirectional controls and the other format characters, line and paragraph
// separators) written as \uXXXX, so what is shown is what runs. An input that is not an
// object is one value. max <= 0 cuts nothing.
func (r ApprovalRequest) ShownInput(max int) string {
	var props map[string]json.RawMessage
	if json.Unmarshal(r.Input, &props) != nil || props == nil {
		return shownValue(string(r.Input), max)
	}
	if len(props) == 0 {
		return "(no properties)"
	}
	lines := make([]string, 0, len(props))
	for _, name := range slices.Sorted(maps.Keys(props)) {
		lines = append(lines, shownValue(name, 0)+": "+shownValue(string(props[name]), max))
	}
	return strings.Join(lines, "\n")
}

// shownValue is s with its display-changing characters escaped, cut after max bytes
// (at a character's start) with the number of bytes left out.
func shownValue(s string, max int) string {
	var b strings.Builder
	for i, c := range s {
		if max > 0 && b.Len() >= max {
			fmt.Fprintf(&b, "… (%d more bytes)", len(s)-i)
			break
		}
		if c == utf8.RuneError || unicode.Is(unicode.Cf, c) || c == '\u2028' || c == '\u2029' || unicode.IsControl(c) {
			fmt.Fprintf(&b, `\u%04X`, c)
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
