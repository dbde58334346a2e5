package files

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func init() {
	commands.Register(commands.Command{Name: "config:get", Domain: "files",
		New: newConfigGetApp, Main: convention.Main(newConfigGetApp)})
}

func newConfigGetApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "config:get",
		Usage:    "Print a workspace.yaml value by dotted key, as the file has it",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "key", Usage: "dotted path from the root of workspace.yaml, e.g. software_delivery.git.push", Required: true},
		},
		Action: configGet,
	})
}

func configGet(c *convention.Call) error {
	key := c.String("key")
	segs := strings.Split(key, ".")
	if !slices.Contains(rootKeys, segs[0]) {
		return unknownRootKey(c, segs[0])
	}
	w, err := c.Workspace()
	if err != nil {
		return err
	}
	node := lookup(delivery.Root(w.Doc), segs)
	if node == nil {
		c.Warn("key %q is not set", key)
		return c.Print("", configGetData{Key: key})
	}
	value, err := nodeValue(node)
	if err != nil {
		return delivery.Errorf(tool.CodeConfigInvalid, "%s: %w", key, err)
	}
	text := node.Value + "\n"
	if node.Kind != yaml.ScalarNode {
		out, err := delivery.EncodeYAML(node)
		if err != nil {
			return delivery.Errorf(tool.CodeInternal, "%s: %w", key, err)
		}
		text = string(out)
	}
	return c.Print(text, configGetData{Key: key, Set: true, Value: value})
}

// rootKeys are the workspace.yaml root keys config:get and config:set know (spec §3.3).
var rootKeys = []string{"id", "name", "packs", "lanes", "policies", "security",
	"software_delivery", "control_plane", "memory_namespace", "event_namespace"}

func unknownRootKey(c *convention.Call, k string) error {
	return c.Failf(tool.CodeValidation, "unknown root key %q (known: %s)", k, strings.Join(rootKeys, ", "))
}

// lookup follows segs through mappings (and, for a numeric segment, a sequence index);
// nil when any step is missing.
func lookup(n *yaml.Node, segs []string) *yaml.Node {
	for _, s := range segs {
		switch {
		case n == nil:
			return nil
		case n.Kind == yaml.AliasNode:
			n = n.Alias
		}
		switch n.Kind {
		case yaml.MappingNode:
			n = delivery.MapGet(n, s)
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
		m := &convention.OrderedMap{}
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

// configGetData is config:get's JSON data; value is null when the key is not set.
type configGetData struct {
	Key   string `json:"key"`
	Set   bool   `json:"set"`
	Value any    `json:"value"`
}
