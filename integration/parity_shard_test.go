package integration_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/golden"
)

// The parity scripts run one after another inside a process (the adapter lane swaps
// process globals), so a suite is spread over processes instead: the test re-runs its
// own binary once per shard, each child runs every n-th script, and the parent merges
// what the children observed. One shard per CPU, at least two.
const (
	shardEnv    = "CMDBRIDGE_PARITY_SHARD"     // "i/n" in a child: run the i-th of n shares
	shardOutEnv = "CMDBRIDGE_PARITY_SHARD_OUT" // where a child writes its shardResult
)

// shardResult is what one share of a suite observed: each script's outcome (by subtest
// name) and the lanes and failures of its parity calls.
type shardResult struct {
	Passed map[string]bool     `json:"passed"`
	Lanes  map[string][]string `json:"lanes"`
	Failed map[string]bool     `json:"failed"`
}

// runSharded runs the scripts of dir through run, in child processes when this is the
// parent, or the child's share when this is a child; the parent returns the merged
// observations, a child nil (its parent checks them).
func runSharded(t *testing.T, dir string, run func(t *testing.T, files []string) shardResult) *shardResult {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no parity scripts in %s", dir)
	if spec := os.Getenv(shardEnv); spec != "" {
		i, n, err := parseShard(spec)
		require.NoError(t, err)
		var mine []string
		for k, f := range files {
			if k%n == i {
				mine = append(mine, f)
			}
		}
		res := run(t, mine)
		data, err := json.Marshal(res)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(os.Getenv(shardOutEnv), data, 0o644))
		return nil
	}
	n := max(2, runtime.GOMAXPROCS(0))
	n = min(n, len(files))
	type child struct {
		out  bytes.Buffer
		err  error
		file string
	}
	children := make([]*child, n)
	var wg sync.WaitGroup
	for i := range children {
		c := &child{file: filepath.Join(t.TempDir(), "shard.json")}
		children[i] = c
		// Only this test, and the subtest part of -run if it has one
		// (-run 'TestParityScripts$/wu_status' reaches the children as ^TestParityScripts$/wu_status).
		run := "^" + t.Name() + "$"
		if f := flag.Lookup("test.run"); f != nil {
			if _, sub, ok := strings.Cut(f.Value.String(), "/"); ok {
				run += "/" + sub
			}
		}
		args := []string{"-test.run=" + run, "-test.count=1", "-test.timeout=0"}
		if testing.Verbose() {
			args = append(args, "-test.v")
		}
		if golden.Update() {
			args = append(args, "-update")
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), shardEnv+"="+fmt.Sprintf("%d/%d", i, n), shardOutEnv+"="+c.file)
		cmd.Stdout, cmd.Stderr = &c.out, &c.out
		// A child never outlives this test process (a timeout's panic, a kill).
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		wg.Go(func() { c.err = cmd.Run() })
	}
	wg.Wait()
	merged := &shardResult{Passed: map[string]bool{}, Lanes: map[string][]string{}, Failed: map[string]bool{}}
	for i, c := range children {
		if c.err != nil || testing.Verbose() {
			t.Logf("shard %d/%d (%v):\n%s", i, n, c.err, c.out.String())
		}
		if c.err != nil {
			t.Errorf("shard %d/%d of %s failed: %v (its output is above)", i, n, t.Name(), c.err)
		}
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Errorf("shard %d/%d wrote no result: %v", i, n, err)
			continue
		}
		var r shardResult
		require.NoError(t, json.Unmarshal(data, &r))
		for k, v := range r.Passed {
			merged.Passed[k] = v
		}
		for k, v := range r.Lanes {
			merged.Lanes[k] = slices.Concat(merged.Lanes[k], v)
		}
		for k, v := range r.Failed {
			merged.Failed[k] = merged.Failed[k] || v
		}
	}
	// Each script the children ran is a subtest here too, passing or failing as it did
	// there: `go test -run 'TestParityScripts$/wu_status' -v` and -json readers see the scripts.
	for _, name := range slices.Sorted(maps.Keys(merged.Passed)) {
		ok := merged.Passed[name]
		t.Run(name, func(t *testing.T) {
			if !ok {
				t.Error("the script failed in its shard (the shard's output is above)")
			}
		})
	}
	return merged
}

func parseShard(spec string) (int, int, error) {
	a, b, ok := strings.Cut(spec, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("%s=%q: want i/n with 0 <= i < n", shardEnv, spec)
	}
	return i, n, nil
}
