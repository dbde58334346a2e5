package delivery

import "go.yaml.in/yaml/v3"

// Clone returns a copy of w that shares nothing with it (its document copied node by
// node, the typed view rebuilt from the copy): what a caller that changes a WU needs
// when w came from a shared Source.
func (w *WU) Clone() *WU {
	if w == nil {
		return nil
	}
	c := &WU{Path: w.Path, Doc: CloneNode(w.Doc)}
	c.Refresh()
	return c
}

// Clone returns a copy of in that shares nothing with it, as [WU.Clone].
func (in *Initiative) Clone() *Initiative {
	if in == nil {
		return nil
	}
	c := &Initiative{Path: in.Path, Doc: CloneNode(in.Doc)}
	c.Refresh()
	return c
}

// CloneNode copies a YAML node tree; an alias in the copy points at the copy of its
// anchor.
func CloneNode(n *yaml.Node) *yaml.Node {
	copies := map[*yaml.Node]*yaml.Node{}
	var walk func(n *yaml.Node) *yaml.Node
	walk = func(n *yaml.Node) *yaml.Node {
		if n == nil {
			return nil
		}
		if c, ok := copies[n]; ok {
			return c
		}
		c := &yaml.Node{}
		*c = *n
		copies[n] = c
		if n.Content != nil {
			c.Content = make([]*yaml.Node, len(n.Content))
			for i, k := range n.Content {
				c.Content[i] = walk(k)
			}
		}
		c.Alias = walk(n.Alias)
		return c
	}
	return walk(n)
}
