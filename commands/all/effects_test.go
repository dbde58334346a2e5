package all_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/tool"
)

func corpusSpec(t *testing.T, name string) tool.Spec {
	t.Helper()
	c, ok := commands.Lookup(name)
	require.True(t, ok, "command %s", name)
	spec, err := adapter.Spec(c)
	require.NoError(t, err)
	return spec
}

// TestAnnotationsAreHonest pins the annotations the users' report found wrong: tools
// that overwrite data are destructive, tools that run configured or caller-given
// commands are open-world and run workspace code (issue #20), and the worst case of a
// tool with a harmless mode stays what tools/list shows.
func TestAnnotationsAreHonest(t *testing.T) {
	for _, tc := range []struct {
		name                                       string
		readOnly, destructive, openWorld, runsCode bool
	}{
		{name: "config:set", destructive: true},
		{name: "wu:edit", destructive: true},
		{name: "plan:edit", destructive: true},
		{name: "initiative:edit", destructive: true},
		{name: "initiative:remove-wu", destructive: true},
		{name: "plan:link", destructive: true},
		{name: "initiative:plan", destructive: true},
		{name: "mem:triage", destructive: true},
		{name: "gates", openWorld: true, runsCode: true},
		{name: "wu:prep", openWorld: true, runsCode: true},
		{name: "wu:sandbox", destructive: true, openWorld: true, runsCode: true},
		{name: "wu:done", openWorld: true, runsCode: true},
		{name: "workspace:init", destructive: true},
		{name: "lane:suggest", destructive: true},
		{name: "metrics:snapshot", destructive: true},
		{name: "wu:block", destructive: true},
		{name: "state:doctor", destructive: true},
		{name: "wu:prune", destructive: true},
		{name: "wu:status", readOnly: true},
		{name: "mem:inbox"},
	} {
		a := corpusSpec(t, tc.name).Annotations
		assert.Equal(t, tc.readOnly, a.ReadOnlyHint, "%s readOnlyHint", tc.name)
		assert.Equal(t, tc.destructive, a.DestructiveHint, "%s destructiveHint", tc.name)
		assert.Equal(t, tc.openWorld, a.OpenWorldHint, "%s openWorldHint", tc.name)
		assert.Equal(t, tc.runsCode, a.RunsCodeHint, "%s runsCodeHint", tc.name)
	}
}

// TestEveryCommandHasAConsistentDeclaration: no read-only command is also destructive,
// and a command with effects declares them over its own properties, narrowing only.
func TestEveryCommandHasAConsistentDeclaration(t *testing.T) {
	for _, c := range commands.All() {
		spec, err := adapter.Spec(c)
		require.NoError(t, err, c.Name)
		assert.False(t, spec.Annotations.ReadOnlyHint && spec.Annotations.DestructiveHint, "%s is read-only and destructive", c.Name)
		assert.NoError(t, spec.CheckEffects())
	}
}

// effectCases are inputs and the effect the tool declares for them: every harmless mode
// of the spec (dry runs, checks, lists) and a dangerous mode next to it.
var effectCases = []struct {
	name, input, want string
}{
	{"state:doctor", `{}`, "read_only"},
	{"state:doctor", `{"fix":false}`, "read_only"},
	{"state:doctor", `{"fix":true,"dry_run":true}`, "read_only"},
	{"state:doctor", `{"fix":true}`, "destructive"},
	{"wu:repair", `{"all":true,"check":true}`, "read_only"},
	{"wu:repair", `{"all":true}`, "destructive"},
	{"wu:prune", `{}`, "read_only"},
	{"wu:prune", `{"execute":true}`, "destructive"},
	{"wu:unlock-lane", `{"list":true}`, "read_only"},
	{"wu:unlock-lane", `{"lane":"Core","reason":"stuck"}`, "destructive"},
	{"backlog:prune", `{}`, "read_only"},
	{"backlog:prune", `{"execute":true}`, "write"},
	{"state:bootstrap", `{}`, "read_only"},
	{"state:bootstrap", `{"force":true}`, "read_only"},
	{"state:bootstrap", `{"execute":true,"force":true}`, "destructive"},
	{"initiative:bulk-assign", `{}`, "read_only"},
	{"initiative:bulk-assign", `{"apply":true}`, "write"},
	{"wu:delete", `{"id":["WU-2"],"dry_run":true}`, "read_only"},
	{"wu:delete", `{"id":["WU-2"]}`, "destructive"},
	{"mem:delete", `{"older_than":"1h","dry_run":true}`, "read_only"},
	{"mem:cleanup", `{"dry_run":true}`, "read_only"},
	{"mem:cleanup", `{}`, "destructive"},
	{"mem:summarize", `{"wu":"WU-15","dry_run":true}`, "read_only"},
	{"signal:cleanup", `{"dry_run":true}`, "read_only"},
	{"state:cleanup", `{"dry_run":true}`, "read_only"},
	{"metrics:snapshot", `{"dry_run":true}`, "read_only"},
	{"metrics:snapshot", `{}`, "write"},
	{"metrics:snapshot", `{"output":"docs/README.md"}`, "destructive"},
	{"lane:suggest", `{}`, "read_only"},
	{"lane:suggest", `{"output":"lanes.yaml"}`, "destructive"},
	{"mem:inbox", `{}`, "read_only"},
	{"mem:inbox", `{"mark":true}`, "write"},
	{"orchestrate:initiative", `{"initiative":"INIT-1","dry_run":true}`, "read_only"},
	{"orchestrate:initiative", `{"initiative":"INIT-1","progress":true}`, "read_only"},
	{"orchestrate:initiative", `{"initiative":"INIT-1"}`, "write"},
	{"orchestrate:monitor", `{}`, "read_only"},
	{"orchestrate:monitor", `{"recover":true,"dry_run":true}`, "read_only"},
	{"orchestrate:monitor", `{"recover":true}`, "write"},
	{"wu:recover", `{"id":"WU-15"}`, "read_only"},
	{"wu:recover", `{"id":"WU-15","action":"resume"}`, "write"},
	{"wu:recover", `{"id":"WU-15","action":"nuke","force":true}`, "destructive"},
	{"mem:triage", `{}`, "read_only"},
	{"mem:triage", `{"archive":"mem-x","reason":"dup"}`, "destructive"},
	{"workspace:init", `{}`, "write"},
	{"workspace:init", `{"force":true}`, "destructive"},
	{"wu:block", `{"id":"WU-15","reason":"waiting"}`, "write"},
	{"wu:block", `{"id":"WU-15","reason":"waiting","remove_worktree":true}`, "destructive"},
	{"gates", `{}`, "runs_code"},
	{"wu:done", `{"id":"WU-15"}`, "runs_code"},
	{"wu:done", `{"id":"WU-15","skip_gates":true,"reason":"flaky runner","fix_wu":"WU-16"}`, "write"},
}

func decodeObject(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &m))
	return m
}

// TestHarmlessModesAreDeclared checks the effect of each case, and that every
// read-only or writing effect a command declares is exercised by some case.
func TestHarmlessModesAreDeclared(t *testing.T) {
	covered := map[string]map[int]bool{}
	for _, tc := range effectCases {
		spec := corpusSpec(t, tc.name)
		a, i := spec.EffectOf(decodeObject(t, tc.input))
		assert.Equal(t, tc.want, a.Kind(), "%s %s", tc.name, tc.input)
		if covered[tc.name] == nil {
			covered[tc.name] = map[int]bool{}
		}
		covered[tc.name][i] = true
	}
	for _, c := range commands.All() {
		spec, err := adapter.Spec(c)
		require.NoError(t, err)
		for i := range spec.Effects {
			assert.True(t, covered[c.Name][i], "%s: effect %d (%s) has no case in effectCases", c.Name, i+1, spec.Effects[i].Describe())
		}
	}
}

// TestReadOnlyEffectsWriteNothing runs every read-only case of effectCases through the
// adapter on its own copy of the acme workspace (a git repository with one commit) and
// requires the files and HEAD to be unchanged: a declared harmless mode must be one.
func TestReadOnlyEffectsWriteNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every declared read-only mode on a copy of acme")
	}
	template := t.TempDir()
	copyTree(t, acmeDir, template)
	gitCommitAll(t, template)
	tree, err := commandstest.ReadTree(template)
	require.NoError(t, err)
	head := func(dir string) string {
		cmd := exec.Command("git", "rev-parse", "HEAD")
		cmd.Dir = dir
		out, err := cmd.Output()
		require.NoError(t, err)
		return strings.TrimSpace(string(out))
	}
	runs := 0
	for _, tc := range effectCases {
		if tc.want != "read_only" {
			continue
		}
		runs++
		c, _ := commands.Lookup(tc.name)
		dir := filepath.Join(t.TempDir(), "ws")
		require.NoError(t, tree.Write(dir))
		before, headBefore := treeDigest(t, dir), head(dir)
		out := adapter.Call(context.Background(), c, json.RawMessage(tc.input), adapter.LaneAdapter,
			adapter.Config{Dir: dir, Env: pinnedEnv(dir)})
		if out.Error != nil {
			// A check that finds issues may fail; a usage error would mean the case
			// never reached the command's work.
			assert.NotEqual(t, "USAGE", out.Error.Code, "%s %s: %s", tc.name, tc.input, out.Error.Message)
			assert.NotEqual(t, tool.CodeInvalidInput, out.Error.Code, "%s %s: %s", tc.name, tc.input, out.Error.Message)
		}
		assert.Equal(t, before, treeDigest(t, dir), "%s %s wrote files", tc.name, tc.input)
		assert.Equal(t, headBefore, head(dir), "%s %s committed", tc.name, tc.input)
	}
	require.Greater(t, runs, 20)
}

// TestNativeToolsDeclareTheirCommandsEffects: a native tool serving a command's name is
// that command's implementation, so it must describe calls the same way — annotations
// (title aside), effects, paths, network and parallel safety — whichever lane is routed.
func TestNativeToolsDeclareTheirCommandsEffects(t *testing.T) {
	compared := 0
	for _, nt := range nativetools.Default.All() {
		c, ok := commands.Lookup(nt.Spec.Name)
		if !ok {
			continue
		}
		compared++
		want, err := adapter.Spec(c)
		require.NoError(t, err)
		got := nt.Spec
		wa, ga := want.Annotations, got.Annotations
		wa.Title, ga.Title = "", ""
		assert.Equal(t, wa, ga, "%s annotations", c.Name)
		assert.Equal(t, jsonOf(t, want.Effects), jsonOf(t, got.Effects), "%s effects", c.Name)
		assert.Equal(t, sortedPaths(want.Paths), sortedPaths(got.Paths), "%s paths", c.Name)
		assert.Equal(t, want.Network, got.Network, "%s network", c.Name)
		assert.Equal(t, want.ParallelSafe, got.ParallelSafe, "%s parallel_safe", c.Name)
	}
	require.NotZero(t, compared)
}

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func sortedPaths(ps []tool.PathInput) []tool.PathInput {
	out := append([]tool.PathInput{}, ps...)
	sort.Slice(out, func(i, j int) bool { return out[i].Property < out[j].Property })
	return out
}
