package delivery

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeMemory(t *testing.T, root string, lines ...string) {
	t.Helper()
	p := MemoryPath(root)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
}

func TestMemoryIDRedrawsOnCollision(t *testing.T) {
	first := MemoryID("basis", nil)
	require.Regexp(t, `^mem-[0-9a-f]{4}$`, first)
	second := MemoryID("basis", func(id string) bool { return id == first })
	assert.NotEqual(t, first, second)
	assert.Equal(t, MemoryID("basis#1", nil), second, "the first redraw hashes basis#1")
}

func TestLoadMemoryLastLineWinsFirstAppearanceOrder(t *testing.T) {
	root := t.TempDir()
	writeMemory(t, root,
		`{"id":"mem-aaaa","type":"note","lifecycle":"session","content":"a1","created_at":"2026-03-01T10:00:00.000Z"}`,
		`{"id":"mem-bbbb","type":"note","lifecycle":"session","content":"b","created_at":"2026-03-01T10:00:00.000Z","x_unknown":1}`,
		`not json`,
		`{"id":"mem-aaaa","type":"note","lifecycle":"session","content":"a2","created_at":"2026-03-01T10:00:00.000Z","metadata":{"status":"deleted"}}`,
		`{"id":"bad","type":"note","lifecycle":"session","content":"x","created_at":"2026-03-01T10:00:00.000Z"}`,
	)
	m, err := LoadMemory(root)
	require.NoError(t, err)
	require.Len(t, m.Nodes, 2)
	assert.Equal(t, "mem-aaaa", m.Nodes[0].ID)
	assert.Equal(t, "a2", m.Nodes[0].Content)
	assert.True(t, m.Nodes[0].Deleted())
	assert.Len(t, m.Visible(), 1)
	require.Len(t, m.Invalid, 2)
	assert.Equal(t, 3, m.Invalid[0].N)
	assert.Equal(t, 5, m.Invalid[1].N)
	assert.Contains(t, m.Warnings()[1], `memory.jsonl line 5: invalid id "bad"`)
	out, err := json.Marshal(m.Nodes[1])
	require.NoError(t, err)
	assert.Equal(t, `{"id":"mem-bbbb","type":"note","lifecycle":"session","content":"b","created_at":"2026-03-01T10:00:00.000Z","x_unknown":1}`, string(out), "unknown keys survive")
}

func TestReadyNodesOpennessAndOrder(t *testing.T) {
	root := t.TempDir()
	writeMemory(t, root,
		`{"id":"mem-0001","type":"discovery","lifecycle":"wu","content":"late P1","created_at":"2026-03-01T12:00:00.000Z","wu_id":"WU-1","metadata":{"priority":"P1"}}`,
		`{"id":"mem-0002","type":"discovery","lifecycle":"wu","content":"no prio","created_at":"2026-03-01T09:00:00.000Z","wu_id":"WU-1"}`,
		`{"id":"mem-0003","type":"discovery","lifecycle":"wu","content":"P0","created_at":"2026-03-01T13:00:00.000Z","wu_id":"WU-1","metadata":{"priority":"P0"}}`,
		`{"id":"mem-0004","type":"note","lifecycle":"ephemeral","content":"eph","created_at":"2026-03-01T09:00:00.000Z","wu_id":"WU-1"}`,
		`{"id":"mem-0005","type":"note","lifecycle":"session","content":"blocked","created_at":"2026-03-01T09:00:00.000Z","wu_id":"WU-1"}`,
		`{"id":"mem-0006","type":"note","lifecycle":"session","content":"closed","created_at":"2026-03-01T09:00:00.000Z","wu_id":"WU-1","metadata":{"status":"closed"}}`,
		`{"id":"mem-0007","type":"note","lifecycle":"session","content":"other wu","created_at":"2026-03-01T09:00:00.000Z","wu_id":"WU-2"}`,
		`{"id":"mem-0008","type":"note","lifecycle":"session","content":"has blocked_by","created_at":"2026-03-01T09:00:00.000Z","wu_id":"WU-1","metadata":{"blocked_by":["mem-0001"]}}`,
	)
	require.NoError(t, os.WriteFile(relationsPath(root),
		[]byte(`{"from_id":"mem-0001","to_id":"mem-0005","type":"blocks","created_at":"2026-03-01T09:00:00.000Z"}`+"\n"), 0o644))
	m, err := LoadMemory(root)
	require.NoError(t, err)
	var ids []string
	for _, n := range m.ReadyNodes("WU-1", "") {
		ids = append(ids, n.ID)
	}
	assert.Equal(t, []string{"mem-0003", "mem-0001", "mem-0002"}, ids)
	assert.Len(t, m.ReadyNodes("WU-1", "note"), 0)
}

func TestCleanupMemory(t *testing.T) {
	root := t.TempDir()
	ws := &Workspace{Root: root, Config: DefaultConfig()}
	writeMemory(t, root,
		`{"id":"mem-0001","type":"note","lifecycle":"ephemeral","content":"eph","created_at":"2026-03-01T09:00:00.000Z"}`,
		`{"id":"mem-0002","type":"discovery","lifecycle":"wu","content":"keep","created_at":"2026-03-01T09:00:00.000Z"}`,
		`{"id":"mem-0002","type":"discovery","lifecycle":"wu","content":"keep v2","created_at":"2026-03-01T09:00:00.000Z"}`,
		`garbage line`,
		`{"id":"mem-0003","type":"note","lifecycle":"session","content":"sess","created_at":"2026-03-01T09:00:00.000Z","session_id":"s1"}`,
		`{"id":"mem-0004","type":"discovery","lifecycle":"wu","content":"summarised","created_at":"2026-03-01T09:00:00.000Z","metadata":{"summarized_into":"mem-9999"}}`,
		`{"id":"mem-0005","type":"summary","lifecycle":"project","content":"old project","created_at":"2020-01-01T00:00:00.000Z"}`,
		`{"id":"mem-0006","type":"discovery","lifecycle":"wu","content":"old","created_at":"2020-01-01T00:00:00.000Z"}`,
	)
	require.NoError(t, os.WriteFile(relationsPath(root), []byte(
		`{"from_id":"mem-0002","to_id":"mem-0001","type":"related","created_at":"2026-03-01T09:00:00.000Z"}`+"\n"+
			`{"from_id":"mem-0002","to_id":"mem-0005","type":"related","created_at":"2026-03-01T09:00:00.000Z"}`+"\n"), 0o644))
	rt, err := NewRuntime(root, mapEnv(map[string]string{"DELIVERY_NOW": "2026-03-01T10:00:00.000Z"}))
	require.NoError(t, err)
	before, err := os.ReadFile(MemoryPath(root))
	require.NoError(t, err)

	removed, kept, b0, b1, err := CleanupMemory(ws, rt, CleanupOptions{TTL: 7 * 24 * time.Hour, SessionID: "s1", DryRun: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"mem-0001", "mem-0003", "mem-0004", "mem-0006"}, removed)
	assert.Equal(t, 2, kept)
	assert.Equal(t, int64(len(before)), b0)
	after, _ := os.ReadFile(MemoryPath(root))
	assert.Equal(t, before, after, "a dry run writes nothing")

	_, _, _, b1real, err := CleanupMemory(ws, rt, CleanupOptions{TTL: 7 * 24 * time.Hour, SessionID: "s1"})
	require.NoError(t, err)
	assert.Equal(t, b1, b1real)
	after, _ = os.ReadFile(MemoryPath(root))
	assert.Equal(t, `{"id":"mem-0002","type":"discovery","lifecycle":"wu","content":"keep v2","created_at":"2026-03-01T09:00:00.000Z"}`+"\n"+
		"garbage line\n"+
		`{"id":"mem-0005","type":"summary","lifecycle":"project","content":"old project","created_at":"2020-01-01T00:00:00.000Z"}`+"\n", string(after))
	rels, _ := os.ReadFile(relationsPath(root))
	assert.Equal(t, `{"from_id":"mem-0002","to_id":"mem-0005","type":"related","created_at":"2026-03-01T09:00:00.000Z"}`+"\n", string(rels))
}

func TestCleanupMemoryKeepsActiveSessionUnderTTL(t *testing.T) {
	root := t.TempDir()
	ws := &Workspace{Root: root, Config: DefaultConfig()}
	writeMemory(t, root,
		`{"id":"mem-0001","type":"note","lifecycle":"session","content":"mine","created_at":"2020-01-01T00:00:00.000Z","session_id":"active"}`,
		`{"id":"mem-0002","type":"note","lifecycle":"session","content":"theirs","created_at":"2020-01-01T00:00:00.000Z","session_id":"other"}`,
	)
	require.NoError(t, WriteSession(root, &Session{SessionID: "active", WUID: "WU-1"}))
	rt, err := NewRuntime(root, mapEnv(nil))
	require.NoError(t, err)
	removed, kept, _, _, err := CleanupMemory(ws, rt, CleanupOptions{TTL: time.Hour})
	require.NoError(t, err)
	assert.Equal(t, []string{"mem-0002"}, removed)
	assert.Equal(t, 1, kept)
}

func TestInitMemoryNeverTouchesExistingFiles(t *testing.T) {
	root := t.TempDir()
	j, c, err := InitMemory(root)
	require.NoError(t, err)
	assert.True(t, j)
	assert.True(t, c)
	require.NoError(t, os.WriteFile(MemoryPath(root), []byte("x\n"), 0o644))
	j, c, err = InitMemory(root)
	require.NoError(t, err)
	assert.False(t, j)
	assert.False(t, c)
	data, _ := os.ReadFile(MemoryPath(root))
	assert.Equal(t, "x\n", string(data))
}

func mapEnv(m map[string]string) gitrepo.LookupEnv {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}
