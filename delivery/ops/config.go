package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// ConfigRootKeys are the workspace.yaml root keys config:get and config:set know
// (corpus §3.3).
var ConfigRootKeys = []string{"id", "name", "packs", "lanes", "policies", "security",
	"software_delivery", "control_plane", "memory_namespace", "event_namespace"}

// ConfigKeyPattern is the form of a key config:get and config:set accept, as a JSON
// Schema pattern: a dotted path whose root (up to the first ".") is one of
// ConfigRootKeys; the rest of the path is checked against the file.
var ConfigKeyPattern = configKeyPattern()

func configKeyPattern() string {
	roots := make([]string, len(ConfigRootKeys))
	for i, k := range ConfigRootKeys {
		roots[i] = regexp.QuoteMeta(k)
	}
	return `^(?:` + strings.Join(roots, "|") + `)(?:\.|$)`
}

// managedKeys name the command that owns each managed root key.
var managedKeys = map[string]string{"packs": "pack:install", "lanes": "lane:edit",
	"security": "security:set", "id": "workspace-init", "name": "workspace-init", "policies": "policy:set"}

func unknownRootKey(k string) error {
	return delivery.Errorf(tool.CodeValidation, "unknown root key %q (known: %s)", k, strings.Join(ConfigRootKeys, ", "))
}

// ConfigGetInput is config:get's input.
type ConfigGetInput struct {
	// Key is a dotted path from the root of workspace.yaml.
	Key string
}

// Check rejects an unknown root key (VALIDATION), before the workspace is opened.
func (in ConfigGetInput) Check() error {
	root, _, _ := strings.Cut(in.Key, ".")
	if !slices.Contains(ConfigRootKeys, root) {
		return unknownRootKey(root)
	}
	return nil
}

// ConfigGetData is config:get's JSON data; value is null when the key is not set.
type ConfigGetData struct {
	Key   string `json:"key"`
	Set   bool   `json:"set"`
	Value any    `json:"value"`
}

// ConfigGet is corpus §3.3 config:get: the value at a dotted key as the file has it
// (mapping order kept). A key that is not set is a warning and data {set: false}.
// Notes.Text is the whole text output: the scalar and a newline, the YAML block of a
// mapping or list, or "" when the key is not set.
func ConfigGet(ws *delivery.Workspace, in ConfigGetInput) (ConfigGetData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return ConfigGetData{}, notes, err
	}
	node := lookupNode(storage.Root(ws.Doc), strings.Split(in.Key, "."))
	if node == nil {
		notes.Warn("key %q is not set", in.Key)
		return ConfigGetData{Key: in.Key}, notes, nil
	}
	value, err := nodeValue(node)
	if err != nil {
		return ConfigGetData{}, notes, delivery.Errorf(tool.CodeConfigInvalid, "%s: %w", in.Key, err)
	}
	notes.Text = node.Value + "\n"
	if node.Kind != yaml.ScalarNode {
		out, err := storage.EncodeYAML(node)
		if err != nil {
			return ConfigGetData{}, notes, delivery.Errorf(tool.CodeInternal, "%s: %w", in.Key, err)
		}
		notes.Text = string(out)
	}
	return ConfigGetData{Key: in.Key, Set: true, Value: value}, notes, nil
}

// ConfigSetInput is config:set's input.
type ConfigSetInput struct {
	// Key is a dotted path from the root of workspace.yaml.
	Key string
	// Value is typed: true/false and numbers become booleans and numbers; on a list,
	// comma-separated items are appended.
	Value string
}

// Check accepts control_plane.*, software_delivery.*, memory_namespace and
// event_namespace (corpus §3.3) and rejects the rest (VALIDATION), before the workspace
// is opened.
func (in ConfigSetInput) Check() error {
	segs := strings.Split(in.Key, ".")
	root := segs[0]
	if cmd, ok := managedKeys[root]; ok {
		return delivery.Errorf(tool.CodeValidation, "key %q is managed by %s; use that command instead", root, cmd)
	}
	if !slices.Contains(ConfigRootKeys, root) {
		return unknownRootKey(root)
	}
	if (root == "control_plane" || root == "software_delivery") && len(segs) == 1 {
		return delivery.Errorf(tool.CodeValidation, "%s is a section: set one of its keys (%s.<key>)", root, root)
	}
	if slices.Contains(segs, "") {
		return delivery.Errorf(tool.CodeValidation, "key %q has an empty segment", in.Key)
	}
	return nil
}

// ConfigSetData is config:set's JSON data.
type ConfigSetData struct {
	Key      string  `json:"key"`
	Previous any     `json:"previous"`
	Value    any     `json:"value"`
	Commit   *Commit `json:"commit"`
}

// ConfigSet is corpus §3.3 config:set: the value written at the dotted key (missing
// mappings created), workspace.yaml saved and committed. Notes.Headline is
// "Set <key> = <value in YAML flow style>".
func ConfigSet(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in ConfigSetInput) (ConfigSetData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return ConfigSetData{}, notes, err
	}
	key, raw := in.Key, in.Value
	segs := strings.Split(key, ".")
	parent := storage.Root(ws.Doc)
	var err error
	for i, s := range segs[:len(segs)-1] {
		if parent, err = storage.EnsureMap(parent, s); err != nil {
			return ConfigSetData{}, notes, delivery.Errorf(tool.CodeValidation, "cannot set %s: %s is not a mapping", key, strings.Join(segs[:i+1], "."))
		}
	}
	last := segs[len(segs)-1]
	old := storage.MapGet(parent, last)
	var previous any
	if old != nil {
		if previous, err = nodeValue(old); err != nil {
			return ConfigSetData{}, notes, delivery.Errorf(tool.CodeConfigInvalid, "%s: %w", key, err)
		}
	}
	next := coerce(raw)
	if old != nil && old.Kind == yaml.SequenceNode {
		next = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: old.Style, Content: slices.Clone(old.Content)}
		for _, item := range strings.Split(raw, ",") {
			next.Content = append(next.Content, storage.StrNode(strings.TrimSpace(item)))
		}
	}
	storage.MapSet(parent, last, next)
	if err := ws.SaveConfig(); err != nil {
		return ConfigSetData{}, notes, err
	}
	value, err := nodeValue(next)
	if err != nil {
		return ConfigSetData{}, notes, delivery.Errorf(tool.CodeInternal, "%s: %w", key, err)
	}
	cm, err := CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("chore: config:set %s=%s", key, raw), delivery.ConfigFile)
	if err != nil {
		return ConfigSetData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Set %s = %s", key, flowYAML(next))
	return ConfigSetData{Key: key, Previous: previous, Value: value, Commit: cm}, notes, nil
}

// lookupNode follows segs through mappings (and, for a numeric segment, a sequence
// index); nil when any step is missing.
func lookupNode(n *yaml.Node, segs []string) *yaml.Node {
	for _, s := range segs {
		switch {
		case n == nil:
			return nil
		case n.Kind == yaml.AliasNode:
			n = n.Alias
		}
		switch n.Kind {
		case yaml.MappingNode:
			n = storage.MapGet(n, s)
		case yaml.SequenceNode:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil
			}
			n = n.Content[i]
		default:
			return nil
		}
	}
	return n
}

// nodeValue converts a YAML node to a JSON value keeping mapping order.
func nodeValue(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.AliasNode:
		return nodeValue(n.Alias)
	case yaml.MappingNode:
		m := &OrderedMap{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := nodeValue(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m.Set(n.Content[i].Value, v)
		}
		return m, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := nodeValue(item)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool", "!!int", "!!float":
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("decode %q: %w", n.Value, err)
		}
		if f, ok := v.(float64); ok && (f != f || f > 1e308 || f < -1e308) {
			return n.Value, nil // NaN and infinities have no JSON form
		}
		return v, nil
	default:
		return n.Value, nil
	}
}

var numberRE = regexp.MustCompile(`^-?\d+(\.\d+)?$`)

// coerce types a value: booleans, numbers, otherwise a string.
func coerce(raw string) *yaml.Node {
	switch {
	case raw == "true" || raw == "false":
		return storage.BoolNode(raw == "true")
	case numberRE.MatchString(raw) && strings.Contains(raw, "."):
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: raw}
	case numberRE.MatchString(raw):
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: raw}
	default:
		return storage.StrNode(raw)
	}
}

// flowYAML renders a value node in YAML flow style on one line.
func flowYAML(n *yaml.Node) string {
	flow := *n
	flow.Style |= yaml.FlowStyle
	flow.HeadComment, flow.LineComment, flow.FootComment = "", "", ""
	if flow.Kind == yaml.ScalarNode && strings.Contains(flow.Value, "\n") {
		flow.Style = yaml.DoubleQuotedStyle
	}
	out, err := yaml.Marshal(&flow)
	if err != nil {
		return n.Value
	}
	return strings.TrimSuffix(string(out), "\n")
}

// OrderedMap is a JSON object that keeps its keys in insertion order (a YAML mapping's
// value, whose keys are not known at compile time). It marshals without HTML escaping.
type OrderedMap struct {
	keys   []string
	values map[string]any
}

// Set appends key (or replaces its value, keeping its position).
func (m *OrderedMap) Set(key string, value any) *OrderedMap {
	if m.values == nil {
		m.values = map[string]any{}
	}
	if _, ok := m.values[key]; !ok {
		m.keys = append(m.keys, key)
	}
	m.values[key] = value
	return m
}

// MarshalJSON writes the members in insertion order, without HTML escaping.
func (m *OrderedMap) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := encodeCompact(&b, k); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := encodeCompact(&b, m.values[k]); err != nil {
			return nil, fmt.Errorf("field %s: %w", k, err)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func encodeCompact(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}
