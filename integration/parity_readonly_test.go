package integration_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/parity/compare"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/effect"
)

// readOnlyInputs are the values of the required properties of the read-only tools,
// chosen so the calls reach their git and file reads on the acme fixture.
var readOnlyInputs = map[string]any{
	"key":        "software_delivery.git.auto_commit",
	"path":       "go.mod",
	"wu":         "WU-1",
	"id":         "WU-1",
	"initiative": "INIT-1",
}

// readOnlyExtra are optional properties some tools need to reach their reads.
var readOnlyExtra = map[string]map[string]any{
	"wu:status":         {"id": "WU-1"},
	"initiative:status": {"id": "INIT-1"},
}

// mustSucceed are the read-only tools of the report whose git reads used to refresh
// .git/index: they must get past their reads (succeed) for the test to mean anything.
var mustSucceed = map[string]bool{"wu:status": true, "git:diff": true, "git:status": true, "git:log": true, "git:branch": true}

// TestReadOnlyToolsWriteNothing runs every tool the kernel lists as read-only
// (readOnlyHint), and every writer in each mode its effects declare read-only, on every
// lane it has, as a caller with only a read scope, each call on a fresh copy of a
// committed acme workspace, and requires the whole copy, .git included, to be byte-identical after the
// call. A copy's index carries stale stat data (new inodes and ctimes), so a git read
// without --no-optional-locks rewrites .git/index and fails this test.
func TestReadOnlyToolsWriteNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every read-only tool on three lanes")
	}
	bin := commandstest.Exe(t)
	home := t.TempDir()
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": home,
		"DELIVERY_NOW": "2026-03-01T10:00:00.000Z", "DELIVERY_OWNER": "tester@example.com",
		// cmdbridge's own state (evidence, keys, outbox) goes outside the workspace copies.
		"CMDBRIDGE_STATE_DIR": t.TempDir(),
	} {
		t.Setenv(k, v)
	}
	// Unset, not empty: git reads an empty GIT_OPTIONAL_LOCKS as false, which would
	// hide exactly what this test looks for.
	for _, k := range []string{"GIT_OPTIONAL_LOCKS", "DELIVERY_WORKSPACE"} {
		t.Setenv(k, "")
		require.NoError(t, os.Unsetenv(k))
	}
	base := filepath.Join(t.TempDir(), "acme")
	require.NoError(t, parity.CopyTree(filepath.Join("..", "testdata", "workspaces", "acme"), base, nil))
	for _, argv := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.name=Tester", "-c", "user.email=tester@example.com", "commit", "-q", "-m", "initial"},
	} {
		cmd := exec.Command("git", argv...)
		cmd.Dir = base
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", argv, out)
	}

	probe, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: base,
			Evidence:  kernel.EvidenceConfig{Dir: t.TempDir()},
		},
		Commands: commands.Default,
		Native:   nativetools.Default,
	})
	require.NoError(t, err)
	specs := probe.Tools()
	require.NoError(t, probe.Close())

	before := hashTree(t, base)
	ran, ranModes := 0, 0
	type call struct {
		spec  tool.Spec
		input map[string]any
		name  string
	}
	var calls []call
	for _, spec := range specs {
		if !spec.Annotations.ReadOnlyHint && !slices.ContainsFunc(spec.Effects, func(e tool.Effect) bool { return e.ReadOnly }) {
			continue
		}
		in := map[string]any{}
		for p, v := range readOnlyExtra[spec.Name] {
			in[p] = v
		}
		for _, p := range spec.InputSchema.Required {
			v, ok := readOnlyInputs[p]
			require.True(t, ok, "%s: no test value for required property %q", spec.Name, p)
			in[p] = v
		}
		if spec.Annotations.ReadOnlyHint {
			calls = append(calls, call{spec, in, spec.Name})
			continue
		}
		// A writer's read-only modes (its effects): a caller with only a read scope may
		// call them (the kernel's scope check follows the call's effect), so they must
		// write nothing either.
		for i, e := range spec.Effects {
			if !e.ReadOnly {
				continue
			}
			mode := maps.Clone(in)
			for _, c := range e.When {
				switch c.Is {
				case effect.Unset:
					delete(mode, c.Property)
				case effect.Equals:
					mode[c.Property] = c.Value
				case effect.Set:
					require.Equal(t, "boolean", spec.InputSchema.Properties[c.Property].Type,
						"%s: effect %d sets %q; give the test a value for it", spec.Name, i, c.Property)
					mode[c.Property] = true
				}
			}
			got, _ := spec.EffectOf(mode)
			require.True(t, got.ReadOnlyHint, "%s: the input built for effect %d is not read-only: %v", spec.Name, i, mode)
			calls = append(calls, call{spec, mode, fmt.Sprintf("%s/effect-%d", spec.Name, i)})
		}
	}
	ws := filepath.Join(t.TempDir(), "acme")
	for _, c := range calls {
		spec, in := c.spec, c.input
		var lanes []string
		if _, ok := commands.Default.Lookup(spec.Name); ok {
			lanes = append(lanes, kernel.LaneAdapter, kernel.LaneSubprocess)
		}
		if _, ok := nativetools.Default.Lookup(spec.Name); ok {
			lanes = append(lanes, kernel.LaneNative)
		}
		raw, err := json.Marshal(in)
		require.NoError(t, err)
		for _, lane := range lanes {
			t.Run(c.name+"/"+lane, func(t *testing.T) {
				// One directory for every call, brought back to base before each (objects
				// shared: git never rewrites one in place, and a write into one would
				// still show in the hashes below). Its index keeps base's stat data, stale
				// for the directory's own files, as a fresh copy's would be.
				require.NoError(t, compare.SyncTreeSharingObjects(base, ws, nil))
				k, err := assemble.Kernel(assemble.Config{
					Config: kernel.Config{
						Workspace: ws,
						LookupEnv: os.LookupEnv,
						// The evidence log is the kernel's own state, not the tool's effect; it
						// is kept out of the workspace so the whole tree can be compared.
						Evidence: kernel.EvidenceConfig{Dir: t.TempDir()},
					},
					Commands: commands.Default,
					Native:   nativetools.Default,
					Legacy:   adapter.Config{Binary: bin},
					Runtime:  delivery.ToolRuntime,
				})
				require.NoError(t, err)
				defer k.Close()
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				// The weakest caller that may make the call: a read scope only.
				res := k.Call(ctx, kernel.Request{Tool: spec.Name, Input: raw, Lane: lane,
					Caller: kernel.Caller{Subject: "reader", Read: []string{"."}}})
				if res.Output.Error != nil {
					require.NotEqual(t, tool.CodeScopeDenied, res.Output.Error.Code, res.Output.Error.Message)
				}
				if mustSucceed[spec.Name] {
					require.True(t, res.Output.Success, "%+v", res.Output.Error)
				}
				assert.Empty(t, changedPaths(before, hashTree(t, ws)), "%s on lane %s changed the workspace (success=%v)",
					spec.Name, lane, res.Output.Success)
			})
			if c.name == spec.Name {
				ran++
			} else {
				ranModes++
			}
		}
	}
	assert.GreaterOrEqual(t, ran, 40, "read-only tool calls")
	assert.GreaterOrEqual(t, ranModes, 20, "calls of writers in their read-only modes")
}

// hashTree maps every entry under dir, .git included, to "mode sha256" (symlinks by
// target). Modification times are left out: only content and mode count.
func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		// The kernel's own state (evidence log, keys, outbox) is not a tool's effect:
		// .cmdbridge/, or <git common dir>/cmdbridge where newer kernels keep it, is
		// left out. The test also points that state elsewhere, so normally neither
		// exists; nothing else is excluded, .git included.
		if rel == ".cmdbridge" || filepath.ToSlash(rel) == ".git/cmdbridge" {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		sum := ""
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			sum = "-> " + target
		case info.Mode().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			h := sha256.Sum256(b)
			sum = hex.EncodeToString(h[:])
		}
		tree[filepath.ToSlash(rel)] = info.Mode().String() + " " + sum
		return nil
	})
	require.NoError(t, err)
	return tree
}

// changedPaths lists the paths added, removed or changed between two hashTrees, sorted.
func changedPaths(before, after map[string]string) []string {
	var out []string
	for p, h := range before {
		if a, ok := after[p]; !ok {
			out = append(out, "D "+p)
		} else if a != h {
			out = append(out, "M "+p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			out = append(out, "A "+p)
		}
	}
	sort.Strings(out)
	return out
}
