package convention

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Envelope is the JSON document every command prints with --json (corpus §2.2), keys in
// this order.
type Envelope struct {
	OK       bool        `json:"ok"`
	Command  string      `json:"command"`
	Data     any         `json:"data"`
	Error    *tool.Error `json:"error"`
	Warnings []string    `json:"warnings"`
}

// WriteEnvelope encodes e with a 2-space indent, no HTML escaping and a trailing newline.
func WriteEnvelope(w io.Writer, e Envelope) error {
	if e.Warnings == nil {
		e.Warnings = []string{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(e); err != nil {
		return fmt.Errorf("encode %s envelope: %w", e.Command, err)
	}
	return nil
}

// Fields renders rule R2: one "  <field>: <value>" line per scalar field of data's JSON
// object, in the order it marshals (struct field order, or an ordered map's order). Null
// fields, empty lists, objects and lists of objects are skipped; lists of strings are
// joined with ", ". The commit field is rendered by R4 instead (see [CommitLines]).
func Fields(data any) (string, error) {
	fields, err := orderedFields(data)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range fields {
		if f.key == "commit" {
			continue
		}
		if v, ok := scalarText(f.raw); ok {
			fmt.Fprintf(&b, "  %s: %s\n", f.key, v)
		}
	}
	return b.String(), nil
}

// Commit is the data of a commit a command made (corpus §2.2 "commit"). Branch is not part
// of the JSON; it names the pushed branch for rule R4.
type Commit struct {
	SHA     string `json:"sha"`
	Subject string `json:"subject"`
	Pushed  bool   `json:"pushed"`
	Branch  string `json:"-"`
}

// CommitLines renders rule R4 for c: "  commit: <sha7> <subject>" and, after a push,
// "  pushed: origin <branch>". A nil commit renders nothing.
func CommitLines(c *Commit) string {
	if c == nil {
		return ""
	}
	sha := c.SHA
	if len(sha) > 7 {
		sha = sha[:7]
	}
	s := fmt.Sprintf("  commit: %s %s\n", sha, c.Subject)
	if c.Pushed {
		branch := c.Branch
		if branch == "" {
			branch = "HEAD"
		}
		s += fmt.Sprintf("  pushed: origin %s\n", branch)
	}
	return s
}

// Table renders rule R3: a text/tabwriter table (minwidth 0, tabwidth 8, padding 2, pad
// ' ', flags 0) under an upper-case header row, or "No <noun> found." when rows is empty.
func Table(noun string, header []string, rows [][]string) string {
	if len(rows) == 0 {
		return fmt.Sprintf("No %s found.\n", noun)
	}
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	upperHeader := make([]string, len(header))
	for i, h := range header {
		upperHeader[i] = strings.ToUpper(h)
	}
	fmt.Fprintln(tw, strings.Join(upperHeader, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	_ = tw.Flush() // writes to a bytes.Buffer cannot fail
	return b.String()
}

type field struct {
	key string
	raw json.RawMessage
}

// orderedFields marshals data and returns its top-level object members in order.
func orderedFields(data any) ([]field, error) {
	if data == nil {
		return nil, nil
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("marshal data: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("decode data: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil // not an object: no fields to list
	}
	var out []field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("decode data: %w", err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("decode data field %v: %w", tok, err)
		}
		out = append(out, field{key: tok.(string), raw: v})
	}
	return out, nil
}

// scalarText renders one JSON value for R2, reporting false when R2 skips it.
func scalarText(raw json.RawMessage) (string, bool) {
	switch raw[0] {
	case 'n', '{':
		return "", false
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s) // raw came from json.Marshal
		return s, true
	case '[':
		var items []any
		_ = json.Unmarshal(raw, &items)
		if len(items) == 0 {
			return "", false
		}
		strs := make([]string, 0, len(items))
		for _, it := range items {
			s, ok := it.(string)
			if !ok {
				return "", false
			}
			strs = append(strs, s)
		}
		return strings.Join(strs, ", "), true
	default:
		return string(raw), true
	}
}

// OrderedMap is a JSON object that keeps its keys in insertion order, for data whose
// fields are not known at compile time (one implementation, shared with the native lane).
type OrderedMap = ops.OrderedMap
