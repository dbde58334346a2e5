package all_test

import (
	"context"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// actingInputs make the writers that change values they listed (WUs, initiatives) act
// on them, where their minimal input only reports.
var actingInputs = map[string]map[string]any{
	"backlog:prune": {"execute": true, "stale_days_ready": 1, "stale_days_in_progress": 1},
	// An initiative the fixture has, resolved through the index.
	"initiative:add-wu":    {"initiative": "INIT-1", "wu": []string{"WU-2"}},
	"initiative:remove-wu": {"initiative": "INIT-1", "wu": "WU-1"},
	"state:doctor":         {"fix": true},
	"wu:delete":            {"id": "WU-3"},
}

// TestToolsLeaveTheWarmIndexAsRead is the audit of issue 24: values the warm index hands
// out are shared between calls, so no tool may change one in place. Every native tool
// runs, one after the other, on one copy of the acme fixture through one host store (the
// read tools answer from its index, every writer refreshes it), with the input built
// from its schema's required properties; after each call the index parses every cached
// file again from the bytes it read and compares (wsindex.Index.Verify), and it checked
// every value it replaced the same way (wsindex.Options.Check: a writer that changed a
// value in place and then rewrote its file is caught too). A tool that changed a cached
// WU, initiative, listing, event log or store fails here, named.
func TestToolsLeaveTheWarmIndexAsRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "acme")
	require.NoError(t, requiredTemplate(t).Write(dir))
	store := tool.NewStore()
	t.Cleanup(func() { _ = store.Close() })
	x := shell.CheckedIndex(store, dir)
	tools := nativetools.Default.All()
	sort.Slice(tools, func(i, j int) bool { return tools[i].Spec.Name < tools[j].Spec.Name })
	succeeded := map[string]int{}
	// Reads first, so that the writers meet a warm index; then every tool again.
	for _, pass := range []string{"read", "all"} {
		for _, n := range tools {
			if pass == "read" && !n.Spec.Annotations.ReadOnlyHint {
				continue
			}
			env := kernelEnv(dir)
			env.Store = store
			inputs := []map[string]any{minimalInput(t, n.Spec)}
			if acting, ok := actingInputs[n.Spec.Name]; ok && pass == "all" {
				inputs = append(inputs, acting)
			}
			for _, in := range inputs {
				out := n.Call(context.Background(), env, mustJSON(t, in))
				if out.Success {
					succeeded[pass]++
				}
				require.NoError(t, x.Verify(), "after %s %v (%s pass; %+v)", n.Spec.Name, in, pass, out.Error)
			}
		}
	}
	require.Same(t, x, shell.IndexOf(store, dir), "the tools used the checked index")
	require.Positive(t, x.Stats().Reads, "the index answered from files it read")
	t.Logf("calls that succeeded: %v of %d tools", succeeded, len(tools))
}
