package storage

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/internal/golden"
)

func TestYAMLRoundTripKeepsUnknownKeysAndComments(t *testing.T) {
	in, err := os.ReadFile("testdata/roundtrip.in.yaml")
	require.NoError(t, err)
	doc, err := DecodeYAML(in)
	require.NoError(t, err)
	root := Root(doc)
	MapSet(root, "status", StrNode("done"))           // existing key keeps its position
	MapSet(root, "completed", DateNode("2026-03-04")) // new key appended, date unquoted
	MapSet(root, "notes", StrNode("line one\nline two"))
	MapSet(root, "phase", IntNode(2))
	MapSet(root, "locked", BoolNode(true))
	assert.True(t, MapDelete(root, "blocked_reason"))
	assert.False(t, MapDelete(root, "blocked_reason"))
	out, err := EncodeYAML(doc)
	require.NoError(t, err)
	golden.Check(t, "roundtrip.out.yaml", out)

	// Re-encoding an untouched decode of our own output is byte-identical.
	again, err := DecodeYAML(out)
	require.NoError(t, err)
	out2, err := EncodeYAML(again)
	require.NoError(t, err)
	assert.Equal(t, string(out), string(out2))
}

func TestEncodeYAMLFormat(t *testing.T) {
	cases := []struct {
		name string
		node func() *yaml.Node
		want string
	}{
		{"dates unquoted, date-like strings quoted", func() *yaml.Node {
			m := NewMap()
			MapSet(m, "created", DateNode("2026-03-02"))
			MapSet(m, "title", StrNode("2026-03-02"))
			return m
		}, "created: 2026-03-02\ntitle: \"2026-03-02\"\n"},
		{"sequences indented under their key, empty as []", func() *yaml.Node {
			m := NewMap()
			MapSet(m, "a", StrSeq([]string{"x", "y"}))
			MapSet(m, "b", StrSeq(nil))
			return m
		}, "a:\n  - x\n  - y\nb: []\n"},
		{"nested mapping indent 2, colon strings quoted", func() *yaml.Node {
			m := NewMap()
			inner := NewMap()
			MapSet(inner, "lane", StrNode("Core: API"))
			MapSet(m, "x", inner)
			return m
		}, "x:\n  lane: 'Core: API'\n"},
		{"empty mapping", func() *yaml.Node { return NewMap() }, "{}\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := EncodeYAML(tc.node())
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(out))
		})
	}
}

func TestMapHelpers(t *testing.T) {
	doc, err := DecodeYAML([]byte("a:\n  b: 1\nlist: [x, y]\nn: null\n"))
	require.NoError(t, err)
	root := Root(doc)
	assert.Equal(t, []string{"a", "list", "n"}, MapKeys(root))
	v, ok := ScalarString(MapPath(root, "a", "b"))
	assert.True(t, ok)
	assert.Equal(t, "1", v)
	assert.Nil(t, MapPath(root, "a", "zz"))
	l, err := StringList(MapGet(root, "list"))
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "y"}, l)
	_, err = StringList(MapGet(root, "a"))
	assert.ErrorContains(t, err, "expected a list")
	m, err := EnsureMap(root, "n")
	require.NoError(t, err)
	MapSet(m, "k", StrNode("v"))
	_, err = EnsureMap(root, "list")
	assert.Error(t, err)
	empty, err := DecodeYAML(nil)
	require.NoError(t, err)
	assert.Equal(t, 0, len(MapKeys(Root(empty))))
}
