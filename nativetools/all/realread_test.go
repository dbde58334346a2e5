package all_test

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands/commandstest/wsgen"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// readCase is one native read tool measured on the generated 1× workspace: an input that
// does the tool's real work there, derived from the generator's manifest.
type readCase struct {
	input func(m *wsgen.Manifest) string
	// fails is the error code the call ends with on both lanes ("" for success).
	fails string
}

func id(pick func(m *wsgen.Manifest) string, format string) func(*wsgen.Manifest) string {
	return func(m *wsgen.Manifest) string { return fmt.Sprintf(format, pick(m)) }
}

func inProgress(m *wsgen.Manifest) string { return m.InProgress[0] }
func withMemory(m *wsgen.Manifest) string { return m.WithMemory[len(m.WithMemory)/2] }
func lastReady(m *wsgen.Manifest) string  { return m.Ready[len(m.Ready)-1] }
func midInitiative(m *wsgen.Manifest) string {
	return m.InitiativeIDs[len(m.InitiativeIDs)/2]
}

// readCases holds every tool routed native that is read-only for its case's input
// (TestEveryNativeReadToolHasARealDataCase keeps it so). A tool whose worst case writes
// (mem:inbox can mark signals read) is here with an input that only reads.
var readCases = map[string]readCase{
	"agent:issues-query": {input: fixed(`{"since":30}`)},
	"backlog:status":     {input: fixed(`{}`)},
	"config:get":         {input: fixed(`{"key":"software_delivery.lanes"}`)},
	"delegation:list":    {input: id(midInitiative, `{"initiative":%q}`)},
	"doctor":             {input: fixed(`{}`)},
	"file:read": {input: func(m *wsgen.Manifest) string {
		return fmt.Sprintf(`{"path":%q}`, path.Join(m.WUDir, m.Done[0]+".yaml"))
	}},
	"flow:bottlenecks":        {input: fixed(`{}`)},
	"git:branch":              {input: fixed(`{}`)},
	"git:diff":                {input: fixed(`{"ref":"HEAD"}`)},
	"git:log":                 {input: fixed(`{"max_count":100}`)},
	"flow:report":             {input: fixed(`{}`)},
	"initiative:bulk-assign":  {input: fixed(`{}`)}, // a dry run, without the rules file: a warning
	"initiative:list":         {input: fixed(`{}`)},
	"initiative:status":       {input: id(midInitiative, `{"id":%q}`)},
	"lane:health":             {input: fixed(`{}`)},
	"mem:context":             {input: id(withMemory, `{"wu":%q}`)},
	"mem:delete":              {input: fixed(`{"older_than":"30d","dry_run":true}`)},
	"mem:cleanup":             {input: fixed(`{"dry_run":true}`)},
	"mem:export":              {input: fixed(`{}`)},
	"mem:inbox":               {input: fixed(`{"all":true}`)},
	"mem:ready":               {input: id(withMemory, `{"wu":%q}`)},
	"mem:recover":             {input: id(withMemory, `{"wu":%q}`)},
	"mem:summarize":           {input: id(withMemory, `{"wu":%q,"dry_run":true}`)},
	"mem:triage":              {input: fixed(`{}`)},
	"metrics":                 {input: fixed(`{}`)},
	"metrics:snapshot":        {input: fixed(`{"days":30,"dry_run":true}`)},
	"orchestrate:init-status": {input: id(midInitiative, `{"initiative":%q}`)},
	"validate":                {input: fixed(`{}`)},
	"wu:deps":                 {input: id(lastReady, `{"id":%q}`)},
	"wu:infer-lane":           {input: fixed(`{"desc":"document the deploy runbook","paths":["docs/runbooks/deploy.md"]}`)},
	"backlog:prune":           {input: fixed(`{}`)},
	"lane:suggest":            {input: fixed(`{}`)},
	"orchestrate:initiative":  {input: id(midInitiative, `{"initiative":%q,"dry_run":true}`)},
	"orchestrate:monitor":     {input: fixed(`{"since":"7d"}`)}, // a report without recover: delegations, locks, signals
	"signal:cleanup":          {input: fixed(`{"dry_run":true}`)},
	"state:bootstrap":         {input: fixed(`{"force":true}`)}, // a dry run over every WU
	"state:cleanup":           {input: fixed(`{"dry_run":true}`)},
	"state:doctor":            {input: fixed(`{}`)},
	"wu:delete":               {input: id(lastReady, `{"id":[%q],"dry_run":true}`)},
	"wu:preflight":            {input: id(inProgress, `{"id":%q}`), fails: tool.CodeCheckFailed}, // generated code paths are not files
	"wu:unlock-lane":          {input: fixed(`{"list":true}`)},
	"wu:prune":                {input: fixed(`{}`)},                        // a dry run: every worktree classified
	"wu:recover":              {input: id(inProgress, `{"id":%q}`)},        // a diagnosis, without action
	"wu:repair":               {input: fixed(`{"all":true,"check":true}`)}, // a check of every WU
	"wu:status":               {input: id(inProgress, `{"id":%q}`)},
	"wu:validate":             {input: id(lastReady, `{"id":%q}`)},
}

// readOnlyFor reports whether t only reads for input (its effect for that input).
func readOnlyFor(t *testing.T, name, input string) bool {
	t.Helper()
	nt, ok := nativetools.Default.Lookup(name)
	require.True(t, ok, "%s: no native implementation", name)
	var in map[string]any
	require.NoError(t, json.Unmarshal([]byte(input), &in), "%s: case input", name)
	a, _ := nt.Spec.EffectOf(in)
	return a.ReadOnlyHint
}

// TestEveryNativeReadToolHasARealDataCase: every tool routed native that can be called
// read-only (read-only worst case, or an effect that narrows to read-only) has a case,
// so make bench measures it on real-scale data; every case names such a tool, with an
// input that only reads.
func TestEveryNativeReadToolHasARealDataCase(t *testing.T) {
	m := &wsgen.Manifest{InProgress: []string{"WU-1"}, Ready: []string{"WU-2"}, Done: []string{"WU-3"}, WithMemory: []string{"WU-4"},
		InitiativeIDs: []string{"INIT-1"}, WUDir: "docs/tasks/wu"}
	routes := nativetools.Default.Routes()
	var missing []string
	for name, lane := range routes {
		nt, ok := nativetools.Default.Lookup(name)
		if lane != "native" || !ok {
			continue
		}
		reads := nt.Spec.Annotations.ReadOnlyHint || slices.ContainsFunc(nt.Spec.Effects, func(e tool.Effect) bool { return e.ReadOnly })
		if _, has := readCases[name]; reads && !has {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	assert.Empty(t, missing, "routed native, callable read-only, and not measured on real data: add them to readCases")
	for name, rc := range readCases {
		assert.Equal(t, "native", routes[name], "%s has a read case but is not routed native", name)
		assert.True(t, readOnlyFor(t, name, rc.input(m)), "%s: the case's input %s is not read-only", name, rc.input(m))
	}
}

// TestRealDataReadToolsAgree runs every read case on the 1× workspace on the adapter
// lane and on the native lane through a warm index (twice: the first call builds it),
// and requires one answer: the index and the shared ops give, at real scale, what the
// legacy command gives.
func TestRealDataReadToolsAgree(t *testing.T) {
	m := realData(t)
	store := tool.NewStore()
	defer store.Close()
	for _, name := range sortedKeys(readCases) {
		rc := readCases[name]
		t.Run(name, func(t *testing.T) {
			in := rc.input(m)
			want := scaleCallIn(t, m, name, "adapter", in, nil)
			checkCode(t, name, "adapter", rc.fails, want)
			for _, pass := range []string{"cold index", "warm index"} {
				got := scaleCallIn(t, m, name, "native-warm", in, store)
				assert.Equal(t, canonical(t, want), canonical(t, got), "%s: native (%s) differs from adapter", name, pass)
			}
		})
	}
}

// BenchmarkRealData measures every read case on the 1× generated workspace (1,265 WUs):
// native-warm (a long-lived host's store: each call validates the index and answers from
// memory) against adapter (the legacy main in-process, which re-reads the workspace on
// every call). scripts/bench-ratio.sh prints adapter/native per tool from one run.
func BenchmarkRealData(b *testing.B) {
	m := generated(b, 1)
	settle(b, m.Dir)
	for _, name := range sortedKeys(readCases) {
		rc := readCases[name]
		in := rc.input(m)
		b.Run(name, func(b *testing.B) {
			store := tool.NewStore()
			defer store.Close()
			for _, lane := range []string{"native-warm", "adapter"} {
				b.Run(lane, func(b *testing.B) {
					var st *tool.Store
					if lane == "native-warm" {
						st = store
					}
					checkCode(b, name, lane, rc.fails, scaleCallIn(b, m, name, lane, in, st)) // and builds the index
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						scaleCallIn(b, m, name, lane, in, st)
					}
				})
			}
		})
	}
}

func checkCode(tb testing.TB, name, lane, fails string, out tool.Output) {
	tb.Helper()
	check(tb, migratedCase{tool: name, fails: fails}, lane, out)
}

// canonical is out as JSON with its metadata reduced to the warnings (the rest are lane
// facts: lane, exit code, duration), for comparing lanes.
func canonical(t *testing.T, out tool.Output) string {
	t.Helper()
	out.Metadata = map[string]any{"warnings": warningsOf(out)}
	if len(warningsOf(out)) == 0 {
		out.Metadata = nil
	}
	raw, err := json.Marshal(out)
	require.NoError(t, err)
	return string(raw)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
