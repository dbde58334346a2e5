package all_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// warmEnv is kernelEnv with the host's store: what a native call gets inside serve, mcp
// or a batch.
func warmEnv(dir string, store *tool.Store) *tool.Env {
	env := kernelEnv(dir)
	env.Store = store
	return env
}

// warmHost calls native tools as a long-lived host does (one store for every call) and
// checks each answer against the same call made cold (no store: read from the disk).
type warmHost struct {
	t     *testing.T
	dir   string
	store *tool.Store
}

// read calls a reading tool warm and cold and requires the same Output.
func (h warmHost) read(name, input string) tool.Output {
	h.t.Helper()
	nt, ok := nativetools.Default.Lookup(name)
	require.True(h.t, ok, name)
	warm := nt.Call(context.Background(), warmEnv(h.dir, h.store), json.RawMessage(input))
	cold := nt.Call(context.Background(), kernelEnv(h.dir), json.RawMessage(input))
	require.Equal(h.t, jsonOf(h.t, cold), jsonOf(h.t, warm), "%s %s: warm and cold differ", name, input)
	return warm
}

// write calls a native writer in the host.
func (h warmHost) write(name, input string) {
	h.t.Helper()
	nt, ok := nativetools.Default.Lookup(name)
	require.True(h.t, ok, name)
	out := nt.Call(context.Background(), warmEnv(h.dir, h.store), json.RawMessage(input))
	require.True(h.t, out.Success, "%s: %+v", name, out.Error)
}

// legacy runs the legacy command in-process on the adapter lane (process semantics: it
// reads and writes the disk, the host's index never hears of it).
func (h warmHost) legacy(name, input string) {
	h.t.Helper()
	cmd, ok := commands.Lookup(name)
	require.True(h.t, ok, name)
	out := adapter.Call(context.Background(), cmd, json.RawMessage(input), adapter.LaneAdapter,
		adapter.Config{Dir: h.dir, Env: benchEnv})
	require.True(h.t, out.Success, "%s: %+v", name, out.Error)
}

func jsonOf(t *testing.T, out tool.Output) string {
	t.Helper()
	b, err := json.Marshal(out)
	require.NoError(t, err)
	return string(b)
}

func statusOf(t *testing.T, out tool.Output) string {
	t.Helper()
	require.True(t, out.Success, "%+v", out.Error)
	var d struct{ Status string }
	b, err := json.Marshal(out.Data)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &d))
	return d.Status
}

// Legacy and native writers interleaved with warm native reads, and hand edits between
// calls: every warm answer equals the cold one and shows the latest write.
func TestWarmIndexFollowsEveryWriter(t *testing.T) {
	fixture, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspaces", "acme"))
	require.NoError(t, err)
	ws := newWorkspace(t, fixture)
	store := tool.NewStore()
	defer store.Close()
	h := warmHost{t: t, dir: ws.dir, store: store}

	assert.Equal(t, "in_progress", statusOf(t, h.read("wu:status", `{"id":"WU-15"}`)))
	h.read("initiative:status", `{"id":"INIT-1"}`)

	h.legacy("wu:block", `{"id":"WU-15","reason":"waiting for review"}`)
	assert.Equal(t, "blocked", statusOf(t, h.read("wu:status", `{"id":"WU-15"}`)))
	h.read("initiative:status", `{"id":"INIT-1"}`)

	h.write("wu:unblock", `{"id":"WU-15","reason":"review done"}`)
	assert.Equal(t, "in_progress", statusOf(t, h.read("wu:status", `{"id":"WU-15"}`)))

	h.write("wu:claim", `{"id":"WU-12","lane":"Content: Docs","branch_only":true}`)
	assert.Equal(t, "in_progress", statusOf(t, h.read("wu:status", `{"id":"WU-12"}`)))
	h.legacy("wu:create", `{"lane":"Content: Docs","title":"Warm index","description":"A WU created by the legacy lane while a host holds the index warm.",`+
		`"acceptance":["seen"],"code_paths":["docs/**"],"exposure":"documentation","type":"documentation","initiative":"INIT-1"}`)
	h.read("initiative:status", `{"id":"INIT-1"}`)
	h.read("wu:status", `{"id":"WU-12"}`)

	// A hand edit that keeps the size, right after the warm read of the same file.
	p := filepath.Join(ws.dir, "docs", "tasks", "wu", "WU-12.yaml")
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	edited := strings.Replace(string(data), "status: in_progress", "status: blocked    ", 1)
	require.Len(t, edited, len(data))
	require.NoError(t, os.WriteFile(p, []byte(edited), 0o644))
	assert.Equal(t, "blocked", statusOf(t, h.read("wu:status", `{"id":"WU-12"}`)))
	h.read("initiative:status", `{"id":"INIT-1"}`)

	// workspace.yaml edited by hand: the configuration is re-read too.
	cfg := filepath.Join(ws.dir, "workspace.yaml")
	data, err = os.ReadFile(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfg, []byte(strings.Replace(string(data), "wuDir: docs/tasks/wu", "wuDir: docs/tasks/none", 1)), 0o644))
	out := h.read("wu:status", `{"id":"WU-12"}`)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeNotFound, out.Error.Code)
}

// countOf is the length of a list in a call's data.
func countOf(t *testing.T, out tool.Output, field string) int {
	t.Helper()
	require.True(t, out.Success, "%+v", out.Error)
	var d map[string][]json.RawMessage
	b, err := json.Marshal(out.Data)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &d))
	return len(d[field])
}

// The memory and signal stores through the warm index: legacy and native writers and a
// hand edit between warm reads, every warm answer equal to the cold one.
func TestWarmIndexFollowsMemoryWriters(t *testing.T) {
	fixture, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspaces", "acme"))
	require.NoError(t, err)
	ws := newWorkspace(t, fixture)
	store := tool.NewStore()
	defer store.Close()
	h := warmHost{t: t, dir: ws.dir, store: store}

	nodes := countOf(t, h.read("mem:export", `{}`), "nodes")
	signals := countOf(t, h.read("mem:inbox", `{"all":true}`), "signals")

	h.legacy("mem:checkpoint", `{"note":"halfway","wu":"WU-15","progress":"schema done"}`)
	assert.Equal(t, nodes+1, countOf(t, h.read("mem:export", `{}`), "nodes"))
	h.read("mem:context", `{"wu":"WU-15"}`)
	h.write("mem:create", `{"message":"cache invalidation is hard","wu":"WU-15","type":"discovery"}`)
	assert.Equal(t, nodes+2, countOf(t, h.read("mem:export", `{}`), "nodes"))
	h.read("mem:triage", `{}`)
	h.read("mem:ready", `{"wu":"WU-15"}`)

	h.write("mem:signal", `{"message":"API frozen","wu":"WU-15"}`)
	assert.Equal(t, signals+1, countOf(t, h.read("mem:inbox", `{"all":true}`), "signals"))
	h.legacy("mem:inbox", `{"all":true,"mark":true}`)
	assert.Zero(t, countOf(t, h.read("mem:inbox", `{}`), "signals"), "every signal was marked read")

	// A node appended by hand, then deleted by the native writer.
	mem := filepath.Join(ws.dir, ".lumenflow", "memory", "memory.jsonl")
	f, err := os.OpenFile(mem, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"id":"mem-beef","type":"note","lifecycle":"project","content":"by hand","created_at":"2026-02-01T10:00:00.000Z"}` + "\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	assert.Equal(t, nodes+3, countOf(t, h.read("mem:export", `{}`), "nodes"))
	h.read("mem:delete", `{"id":["mem-beef"],"dry_run":true}`)
	h.write("mem:delete", `{"id":["mem-beef"]}`)
	assert.Equal(t, nodes+2, countOf(t, h.read("mem:export", `{}`), "nodes"))
}
