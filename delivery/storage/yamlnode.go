package storage

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Tags of the scalar nodes the encoder writes.
const (
	TagStr       = "!!str"
	TagInt       = "!!int"
	TagBool      = "!!bool"
	TagNull      = "!!null"
	TagTimestamp = "!!timestamp"
	TagMap       = "!!map"
	TagSeq       = "!!seq"
)

// DecodeYAML parses data into a document node. An empty input yields a document holding
// an empty mapping, so callers can always edit the root.
func DecodeYAML(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{NewMap()}}
	}
	return &doc, nil
}

// Root returns the top node of a document (the node itself when it is not a document).
func Root(doc *yaml.Node) *yaml.Node {
	if doc != nil && doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		return doc.Content[0]
	}
	return doc
}

// EncodeYAML is the one YAML writer of the workspace (corpus §1.14): indent 2, sequences
// indented under their key, no document marker, LF line endings, exactly one final newline.
func EncodeYAML(node *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return nil, fmt.Errorf("encode yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode yaml: %w", err)
	}
	out := bytes.TrimPrefix(buf.Bytes(), []byte("---\n"))
	out = bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n"))
	out = append(bytes.TrimRight(out, "\n"), '\n')
	return out, nil
}

// NewMap returns an empty block mapping node.
func NewMap() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: TagMap} }

// NewSeq returns a block sequence of the given nodes (an empty one renders as []).
func NewSeq(items ...*yaml.Node) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: TagSeq, Content: items}
	if len(items) == 0 {
		n.Style = yaml.FlowStyle
	}
	return n
}

// StrNode returns a string scalar. The encoder quotes it when a plain scalar would read
// back as another type; multi-line strings use the literal block style.
func StrNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: TagStr, Value: s}
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
	}
	return n
}

// StrSeq returns a sequence of string scalars.
func StrSeq(items []string) *yaml.Node {
	nodes := make([]*yaml.Node, len(items))
	for i, s := range items {
		nodes[i] = StrNode(s)
	}
	return NewSeq(nodes...)
}

// IntNode returns an integer scalar.
func IntNode(i int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: TagInt, Value: strconv.FormatInt(i, 10)}
}

// BoolNode returns a boolean scalar.
func BoolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: TagBool, Value: strconv.FormatBool(b)}
}

// NullNode returns a null scalar.
func NullNode() *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: TagNull, Value: "null"} }

// DateNode returns an unquoted YYYY-MM-DD date scalar (corpus §1.14).
func DateNode(date string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: TagTimestamp, Value: date}
}

// TimestampNode returns an RFC 3339 timestamp written as a plain scalar, the form
// LumenFlow files use for claimed_at and completed_at.
func TimestampNode(ts string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: TagTimestamp, Value: ts}
}

// MapGet returns the value node for key in mapping m, or nil. Aliases are followed.
func MapGet(m *yaml.Node, key string) *yaml.Node {
	m = Deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return Deref(m.Content[i+1])
		}
	}
	return nil
}

// MapHas reports whether mapping m has key.
func MapHas(m *yaml.Node, key string) bool { return MapGet(m, key) != nil }

// MapSet sets key to value in mapping m. An existing key keeps its position and the
// comments of the value it replaces; a new key is appended at the end (corpus §1.14).
func MapSet(m *yaml.Node, key string, value *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			old := m.Content[i+1]
			if value.HeadComment == "" {
				value.HeadComment = old.HeadComment
			}
			if value.LineComment == "" {
				value.LineComment = old.LineComment
			}
			if value.FootComment == "" {
				value.FootComment = old.FootComment
			}
			m.Content[i+1] = value
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: TagStr, Value: key}, value)
}

// MapDelete removes key from mapping m and reports whether it was present.
func MapDelete(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			// A trailing comment block is attached to the last pair; hand it to the
			// previous pair so deleting a key never deletes the comment after it.
			foot := joinComments(m.Content[i].FootComment, m.Content[i+1].FootComment)
			if foot != "" && i >= 2 {
				prev := m.Content[i-2]
				prev.FootComment = joinComments(prev.FootComment, foot)
			}
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return true
		}
	}
	return false
}

// MapKeys returns the keys of mapping m in file order.
func MapKeys(m *yaml.Node) []string {
	m = Deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	keys := make([]string, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		keys = append(keys, m.Content[i].Value)
	}
	return keys
}

// MapPath follows a dotted path of mapping keys from n and returns the node, or nil.
func MapPath(n *yaml.Node, path ...string) *yaml.Node {
	for _, k := range path {
		n = MapGet(n, k)
		if n == nil {
			return nil
		}
	}
	return n
}

// EnsureMap returns the mapping under key in m, creating (and appending) it when absent.
// It fails when the key holds something other than a mapping or null.
func EnsureMap(m *yaml.Node, key string) (*yaml.Node, error) {
	v := MapGet(m, key)
	switch {
	case v == nil || IsNull(v):
		nm := NewMap()
		MapSet(m, key, nm)
		return nm, nil
	case v.Kind == yaml.MappingNode:
		return v, nil
	default:
		return nil, fmt.Errorf("%s is not a mapping", key)
	}
}

// ScalarString returns a scalar node's value and whether n is a non-null scalar.
func ScalarString(n *yaml.Node) (string, bool) {
	n = Deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || IsNull(n) {
		return "", false
	}
	return n.Value, true
}

// StringList reads a sequence of scalars; a missing or null node is an empty list.
func StringList(n *yaml.Node) ([]string, error) {
	n = Deref(n)
	if n == nil || IsNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("expected a list, found %s", KindName(n))
	}
	out := make([]string, 0, len(n.Content))
	for i, item := range n.Content {
		s, ok := ScalarString(item)
		if !ok {
			return nil, fmt.Errorf("item %d: expected a string, found %s", i+1, KindName(item))
		}
		out = append(out, s)
	}
	return out, nil
}

func Deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func IsNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && (n.ShortTag() == TagNull)
}

func KindName(n *yaml.Node) string {
	n = Deref(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case TagNull:
			return "null"
		case TagBool:
			return "a boolean"
		case TagInt:
			return "an integer"
		case "!!float":
			return "a number"
		case TagTimestamp:
			return "a date"
		}
		return "a string"
	}
	return "an unsupported node"
}

func joinComments(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
