package kernel_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// A shadow-routed tool serves the adapter's result, runs its native implementation on a
// scratch copy, and records whether the two agreed — in the receipt and the metric.
func TestShadowRouteRecordsDifferences(t *testing.T) {
	type claimIn struct {
		ID    string `json:"id"`
		Force bool   `json:"force,omitempty"`
	}
	cases := []struct {
		name    string
		native  func(env *tool.Env, in claimIn) tool.Output
		match   bool
		diffHas string
	}{
		{"agreeing native", func(env *tool.Env, in claimIn) tool.Output {
			return tool.OK(map[string]any{"id": in.ID})
		}, true, ""},
		{"one field differs", func(env *tool.Env, in claimIn) tool.Output {
			return tool.OK(map[string]any{"id": in.ID + "x"})
		}, false, "output /data/id"},
		{"stray file written", func(env *tool.Env, in claimIn) tool.Output {
			if err := os.WriteFile(filepath.Join(env.Dir, "stray.txt"), []byte("oops\n"), 0o644); err != nil {
				return tool.Fail(tool.CodeInternal, "%v", err)
			}
			return tool.OK(map[string]any{"id": in.ID})
		}, false, "tree stray.txt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			withNative := func(c *assemble.Config) {
				reg := native.NewRegistry()
				require.NoError(t, reg.Add(native.New(tool.Spec{Name: "wu:edit"},
					func(ctx context.Context, env *tool.Env, in claimIn) tool.Output { return tc.native(env, in) })))
				c.Native = reg
				c.Routes = map[string]string{"wu:edit": kernel.RouteShadow}
			}
			k, ws := newKernel(t, &probe{}, withNative)
			require.NoError(t, os.WriteFile(filepath.Join(ws, "keep.txt"), []byte("kept\n"), 0o644))
			res := k.Call(context.Background(), req("wu:edit", `{"id":"WU-7"}`))
			require.True(t, res.Output.Success, "%+v", res.Output.Error)
			assert.Equal(t, "adapter", res.Receipt.Lane)
			assert.JSONEq(t, `{"id":"WU-7"}`, string(res.Output.Data.(json.RawMessage)), "the adapter's result is served")
			_, err := os.Stat(filepath.Join(ws, "stray.txt"))
			assert.ErrorIs(t, err, os.ErrNotExist, "the native lane never writes the real workspace")

			note := res.Receipt.Shadow
			require.NotNil(t, note)
			assert.Empty(t, note.Error)
			assert.Equal(t, tc.match, note.Match, "%v", note.Diffs)
			if tc.diffHas != "" {
				require.NotEmpty(t, note.Diffs)
				assert.Contains(t, note.Diffs[0], tc.diffHas)
			}
			onDisk := receipts(t, ws)
			require.Len(t, onDisk, 1)
			require.NotNil(t, onDisk[0].Shadow, "the note is on record")
			assert.Equal(t, tc.match, onDisk[0].Shadow.Match)

			stat := k.ShadowStats()["wu:edit"]
			assert.Equal(t, int64(1), stat.Runs)
			assert.Equal(t, int64(map[bool]int{true: 0, false: 1}[tc.match]), stat.Mismatches)
		})
	}
}

// Only an unforced shadow-routed call shadows; forcing a lane or routing adapter does not.
func TestShadowOnlyOnShadowRoute(t *testing.T) {
	type claimIn struct {
		ID string `json:"id"`
	}
	ran := 0
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) {
		reg := native.NewRegistry()
		require.NoError(t, reg.Add(native.New(tool.Spec{Name: "wu:edit"},
			func(ctx context.Context, env *tool.Env, in claimIn) tool.Output { ran++; return tool.OK(nil) })))
		c.Native = reg
		c.Routes = map[string]string{"wu:edit": kernel.RouteShadow}
	})
	r := req("wu:edit", `{"id":"WU-7"}`)
	r.Lane = kernel.LaneAdapter
	res := k.Call(context.Background(), r)
	require.True(t, res.Output.Success)
	assert.Nil(t, res.Receipt.Shadow)
	assert.Zero(t, ran)
	assert.Empty(t, k.ShadowStats())
}

// The directory a shadow run uses is kept for the workspace's next shadow run and brought
// to the workspace's content first: what the last native run left there is gone, what
// changed in the workspace since is there. Runs at the same time get directories of their
// own, and Close removes them all.
func TestShadowDirectoriesAreKeptInStep(t *testing.T) {
	type in struct {
		ID string `json:"id"`
	}
	var mu sync.Mutex
	dirs := map[string]bool{}
	k, ws := newKernel(t, &probe{}, func(c *assemble.Config) {
		reg := native.NewRegistry()
		require.NoError(t, reg.Add(native.New(tool.Spec{Name: "wu:edit"},
			func(ctx context.Context, env *tool.Env, in in) tool.Output {
				mu.Lock()
				dirs[env.Dir] = true
				mu.Unlock()
				// Leave a file behind, as a native writer would.
				if err := os.WriteFile(filepath.Join(env.Dir, "left-"+in.ID), nil, 0o644); err != nil {
					return tool.Fail(tool.CodeInternal, "%v", err)
				}
				return tool.OK(nil)
			})))
		c.Native = reg
		c.Routes = map[string]string{"wu:edit": kernel.RouteShadow}
	})
	write := func(name string) {
		require.NoError(t, os.WriteFile(filepath.Join(ws, name), []byte(name+"\n"), 0o644))
	}
	write("one.txt")
	res := k.Call(context.Background(), req("wu:edit", `{"id":"a"}`))
	require.NotNil(t, res.Receipt.Shadow)
	require.Empty(t, res.Receipt.Shadow.Error)
	require.Len(t, dirs, 1)
	var dir string
	for d := range dirs {
		dir = d
	}
	assert.FileExists(t, filepath.Join(dir, "left-a"), "the directory outlives the call")

	write("two.txt")
	require.NoError(t, os.Remove(filepath.Join(ws, "one.txt")))
	res = k.Call(context.Background(), req("wu:edit", `{"id":"b"}`))
	require.Empty(t, res.Receipt.Shadow.Error)
	assert.Len(t, dirs, 1, "the second run used the kept directory")
	assert.NoFileExists(t, filepath.Join(dir, "left-a"), "what the last run left is gone")
	assert.NoFileExists(t, filepath.Join(dir, "one.txt"), "what the workspace lost is gone")
	assert.FileExists(t, filepath.Join(dir, "two.txt"), "what the workspace gained is there")
	assert.Contains(t, strings.Join(res.Receipt.Shadow.Diffs, "\n"), "left-b", "the run's own stray file is still a difference")

	// Calls at the same time each get a directory of their own.
	var wg sync.WaitGroup
	results := make([]kernel.Result, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = k.Call(context.Background(), req("wu:edit", fmt.Sprintf(`{"id":"p%d"}`, i)))
		}()
	}
	wg.Wait()
	for i, res := range results {
		require.NotNil(t, res.Receipt.Shadow)
		require.Empty(t, res.Receipt.Shadow.Error)
		var left []string
		for _, d := range res.Receipt.Shadow.Diffs {
			if strings.Contains(d, "left-") {
				left = append(left, d)
			}
		}
		require.Len(t, left, 1, "run %d: its own stray file and no other run's: %v", i, res.Receipt.Shadow.Diffs)
		assert.Contains(t, left[0], fmt.Sprintf("left-p%d", i))
	}
	require.NoError(t, k.Close())
	for d := range dirs {
		assert.Equal(t, filepath.Base(ws), filepath.Base(d), "a copy has the workspace's base name")
		assert.NoDirExists(t, d)
		assert.NoDirExists(t, filepath.Dir(filepath.Dir(d)), "the kernel's shadow root is removed")
	}
}

// fakeShadows are shadow runs of the test's own: they note which lanes they decorate,
// serve the primary and record a match.
type fakeShadows struct {
	state    statedir.Dir
	mu       sync.Mutex
	pairs    []string
	closed   int
	closeErr error
}

func (f *fakeShadows) Lane(primary, secondary kernel.Lane) kernel.Lane {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pairs = append(f.pairs, primary.Name()+"/"+secondary.Name())
	return fakeShadowLane{primary}
}

func (f *fakeShadows) Stats() map[string]kernel.ShadowStat {
	f.mu.Lock()
	defer f.mu.Unlock()
	return map[string]kernel.ShadowStat{"demo:both": {Runs: int64(len(f.pairs))}}
}

func (f *fakeShadows) Close() error { f.closed++; return f.closeErr }

type fakeShadowLane struct{ primary kernel.Lane }

func (l fakeShadowLane) Name() string { return l.primary.Name() }

func (l fakeShadowLane) Run(ctx context.Context, call kernel.LaneCall) tool.Output {
	call.Notes.SetShadow(&evidence.ShadowNote{Match: true})
	return l.primary.Run(ctx, call)
}

// shadowConfig is a kernel of neutral sources with demo:both routed shadow.
func shadowConfig(t *testing.T, lanes ...kernel.Lane) kernel.Config {
	return kernel.Config{
		Workspace: t.TempDir(), Evidence: kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		Tools: []kernel.Source{
			neutralSource(kernel.SourceCommand, "demo:both"), neutralSource(kernel.SourceNative, "demo:both"),
			neutralSource(kernel.SourceCommand, "demo:cmd"),
		},
		Routes: map[string]string{"demo:both": kernel.RouteShadow},
		Lanes:  lanes,
	}
}

// TestShadowRunsArePluggedIn: Config.Shadow is built once from the state directory the
// kernel found; a shadow-routed call is served through its decorator of the serving lane
// with the native lane, and only that call; ShadowStats are its counts and Close closes
// it.
func TestShadowRunsArePluggedIn(t *testing.T) {
	fake := &fakeShadows{}
	built := 0
	cfg := shadowConfig(t, answeringLane(kernel.LaneAdapter), answeringLane(kernel.LaneNative))
	cfg.Shadow = func(state statedir.Dir) (kernel.Shadows, error) {
		built++
		fake.state = state
		return fake, nil
	}
	k, err := kernel.New(cfg)
	require.NoError(t, err)
	assert.Equal(t, 1, built)
	assert.Equal(t, k.State(), fake.state, "built from the state directory the kernel found")

	res := k.Call(context.Background(), req("demo:both", `{}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, "adapter ran demo:both", res.Output.Data, "the serving lane's result")
	assert.Equal(t, kernel.LaneAdapter, res.Receipt.Lane)
	require.NotNil(t, res.Receipt.Shadow, "the decorator's note is on the receipt")
	assert.True(t, res.Receipt.Shadow.Match)

	for _, r := range []kernel.Request{req("demo:cmd", `{}`), {Tool: "demo:both", Input: []byte(`{}`), Caller: kernel.WorkspaceCaller("tester"), Lane: kernel.LaneNative}} {
		res := k.Call(context.Background(), r)
		require.True(t, res.Output.Success, "%+v", res.Output.Error)
		assert.Nil(t, res.Receipt.Shadow, "%s on %q is not shadowed", r.Tool, r.Lane)
	}
	assert.Equal(t, []string{"adapter/native"}, fake.pairs)
	assert.Equal(t, map[string]kernel.ShadowStat{"demo:both": {Runs: 1}}, k.ShadowStats())

	fake.closeErr = errors.New("copies left behind")
	assert.ErrorContains(t, k.Close(), "copies left behind", "Close closes the shadow runs")
	assert.Equal(t, 1, fake.closed)
}

// TestShadowRouteNeedsItsComparison: a kernel that could serve a shadow route only
// without its comparison (no Config.Shadow, no native lane, no shadow runs built) fails
// New, naming what to configure; a kernel with no shadow route needs no shadow runs and
// reports no counts.
func TestShadowRouteNeedsItsComparison(t *testing.T) {
	fake := func(statedir.Dir) (kernel.Shadows, error) { return &fakeShadows{}, nil }
	for _, tc := range []struct {
		name string
		mod  func(*kernel.Config)
		want string
	}{
		{"no shadow runs", func(c *kernel.Config) {}, `tool demo:both: route "shadow" needs Config.Shadow`},
		{"no native lane", func(c *kernel.Config) {
			c.Shadow, c.Lanes = fake, []kernel.Lane{answeringLane(kernel.LaneAdapter)}
		}, `tool demo:both: route "shadow" needs a native lane`},
		{"shadow runs fail", func(c *kernel.Config) {
			c.Shadow = func(statedir.Dir) (kernel.Shadows, error) { return nil, errors.New("no scratch space") }
		}, "shadow runs: no scratch space"},
		{"shadow runs missing", func(c *kernel.Config) {
			c.Shadow = func(statedir.Dir) (kernel.Shadows, error) { return nil, nil }
		}, "Config.Shadow returned none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := shadowConfig(t, answeringLane(kernel.LaneAdapter), answeringLane(kernel.LaneNative))
			tc.mod(&cfg)
			k, err := kernel.New(cfg)
			if err == nil {
				_ = k.Close()
			}
			assert.ErrorContains(t, err, tc.want)
		})
	}

	cfg := shadowConfig(t, answeringLane(kernel.LaneAdapter), answeringLane(kernel.LaneNative))
	cfg.Routes = nil
	k, err := kernel.New(cfg)
	require.NoError(t, err, "no shadow route, no shadow runs needed")
	res := k.Call(context.Background(), req("demo:both", `{}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Nil(t, res.Receipt.Shadow)
	assert.Empty(t, k.ShadowStats())
	assert.NoError(t, k.Close())
}
