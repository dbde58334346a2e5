package files

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func init() {
	commands.Register(commands.Command{Name: "config:set", Domain: "files",
		New: newConfigSetApp, Main: convention.Main(newConfigSetApp)})
}

func newConfigSetApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "config:set",
		Usage: "Set a workspace.yaml value by dotted key and commit it",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "key", Usage: "dotted path from the root of workspace.yaml", Required: true},
			&cli.StringFlag{Name: "value", Usage: "new value: true/false and numbers are typed; lists get comma-separated items appended", Required: true},
		},
		Action: configSet,
	})
}

func configSet(c *convention.Call) error {
	key, raw := c.String("key"), c.String("value")
	segs := strings.Split(key, ".")
	if err := writableKey(c, segs); err != nil {
		return err
	}
	w, err := c.Workspace()
	if err != nil {
		return err
	}
	parent := delivery.Root(w.Doc)
	for i, s := range segs[:len(segs)-1] {
		if parent, err = delivery.EnsureMap(parent, s); err != nil {
			return c.Failf(tool.CodeValidation, "cannot set %s: %s is not a mapping", key, strings.Join(segs[:i+1], "."))
		}
	}
	last := segs[len(segs)-1]
	old := delivery.MapGet(parent, last)
	var previous any
	if old != nil {
		if previous, err = nodeValue(old); err != nil {
			return delivery.Errorf(tool.CodeConfigInvalid, "%s: %w", key, err)
		}
	}
	next := coerce(raw)
	if old != nil && old.Kind == yaml.SequenceNode {
		next = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: old.Style, Content: slices.Clone(old.Content)}
		for _, item := range strings.Split(raw, ",") {
			next.Content = append(next.Content, delivery.StrNode(strings.TrimSpace(item)))
		}
	}
	delivery.MapSet(parent, last, next)
	if err := w.SaveConfig(); err != nil {
		return err
	}
	value, err := nodeValue(next)
	if err != nil {
		return delivery.Errorf(tool.CodeInternal, "%s: %w", key, err)
	}
	cm, err := c.Commit(w, fmt.Sprintf("chore: config:set %s=%s", key, raw), delivery.ConfigFile)
	if err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Set %s = %s", key, flowYAML(next)),
		configSetData{Key: key, Previous: previous, Value: value, Commit: cm})
}

// managedKeys name the command that owns each managed root key.
var managedKeys = map[string]string{"packs": "pack:install", "lanes": "lane:edit",
	"security": "security:set", "id": "workspace-init", "name": "workspace-init", "policies": "policy:set"}

// writableKey accepts control_plane.*, software_delivery.*, memory_namespace and
// event_namespace (spec §3.3).
func writableKey(c *convention.Call, segs []string) error {
	root := segs[0]
	if cmd, ok := managedKeys[root]; ok {
		return c.Failf(tool.CodeValidation, "key %q is managed by %s; use that command instead", root, cmd)
	}
	if !slices.Contains(rootKeys, root) {
		return unknownRootKey(c, root)
	}
	if (root == "control_plane" || root == "software_delivery") && len(segs) == 1 {
		return c.Failf(tool.CodeValidation, "%s is a section: set one of its keys (%s.<key>)", root, root)
	}
	if slices.Contains(segs, "") {
		return c.Failf(tool.CodeValidation, "key %q has an empty segment", strings.Join(segs, "."))
	}
	return nil
}

var numberRE = regexp.MustCompile(`^-?\d+(\.\d+)?$`)

// coerce types a --value: booleans, numbers, otherwise a string.
func coerce(raw string) *yaml.Node {
	switch {
	case raw == "true" || raw == "false":
		return delivery.BoolNode(raw == "true")
	case numberRE.MatchString(raw) && strings.Contains(raw, "."):
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: raw}
	case numberRE.MatchString(raw):
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: raw}
	default:
		return delivery.StrNode(raw)
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

// configSetData is config:set's JSON data.
type configSetData struct {
	Key      string             `json:"key"`
	Previous any                `json:"previous"`
	Value    any                `json:"value"`
	Commit   *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d configSetData) Committed() *convention.Commit { return d.Commit }
