package wu_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// snapshot is everything a failed call must leave as it found it: every file and
// directory outside .git (content and mode), git's index bytes, and git status.
type snapshot struct {
	files  map[string]string
	index  []byte
	status string
}

func snap(t *testing.T, ws string) snapshot {
	t.Helper()
	s := snapshot{files: map[string]string{}}
	require.NoError(t, filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(ws, p)
		if rel == ".git" {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			s.files[rel+"/"] = fi.Mode().String()
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s.files[rel] = fi.Mode().String() + " " + string(b)
		return nil
	}))
	var err error
	s.index, err = os.ReadFile(filepath.Join(ws, ".git", "index"))
	require.NoError(t, err)
	// git status may refresh the index's stat data: read the index bytes first.
	s.status = nt.Git(t, ws, "status", "--porcelain", "--untracked-files=all")
	return s
}

// lockIndex holds git's index lock as an outside `git commit` would; the returned
// function releases it.
func lockIndex(t *testing.T, ws string) func() {
	t.Helper()
	p := filepath.Join(ws, ".git", "index.lock")
	require.NoError(t, os.WriteFile(p, nil, 0o644))
	return func() { require.NoError(t, os.Remove(p)) }
}

// adapterCall runs the legacy command in-process (the adapter lane) with the pinned env.
func adapterCall(t *testing.T, ws, name, input string) tool.Output {
	t.Helper()
	c, ok := commands.Lookup(name)
	require.True(t, ok)
	env := map[string]string{}
	for k, v := range nt.Env {
		env[k] = v
	}
	out := adapter.Call(context.Background(), c, json.RawMessage(input), adapter.LaneAdapter, adapter.Config{Dir: ws, Env: env})
	if raw, ok := out.Data.(json.RawMessage); ok {
		var generic any
		require.NoError(t, json.Unmarshal(raw, &generic))
		out.Data = generic
	}
	return out
}

type caller func(t *testing.T, ws, name, input string) tool.Output

var lanes = map[string]caller{
	"native":  func(t *testing.T, ws, name, input string) tool.Output { t.Helper(); return nt.Call(t, ws, name, input) },
	"adapter": adapterCall,
}

// TestCreateFailedCommitRollsBack: wu:create whose commit fails (an outside commit holds
// the index lock) is GIT_ERROR and leaves the workspace byte for byte as it found it —
// no WU file, no event, no directory, index and status unchanged — on both lanes. The
// retry after the lock is gone creates the same WU-1, once.
func TestCreateFailedCommitRollsBack(t *testing.T) {
	for lane, call := range lanes {
		t.Run(lane, func(t *testing.T) {
			ws := nt.Workspace(t)
			release := lockIndex(t, ws)
			before := snap(t, ws)
			out := call(t, ws, "wu:create", input(t, validWU, nil))
			assert.Equal(t, tool.CodeGitError, nt.Code(t, out))
			assert.Contains(t, out.Error.Message, "index.lock")
			assert.Equal(t, before, snap(t, ws), "the failed call left the workspace as it found it")

			release()
			d := nt.Data(t, call(t, ws, "wu:create", input(t, validWU, nil)))
			assert.Equal(t, "WU-1", d["id"], "the retry gets the same id")
			assert.Equal(t, "", nt.Git(t, ws, "status", "--porcelain", "--untracked-files=all"))
			events, err := os.ReadFile(filepath.Join(ws, ".lumenflow", "state", "wu-events.jsonl"))
			require.NoError(t, err)
			assert.Equal(t, 1, strings.Count(string(events), `"type":"create"`), "one create event: no duplicate WU")
			wus, err := os.ReadDir(filepath.Join(ws, "docs", "tasks", "wu"))
			require.NoError(t, err)
			assert.Len(t, wus, 1)
		})
	}
}

// TestClaimFailedCommitRollsBack: wu:claim rewrites the WU spec and appends to the event
// log (existing files: a rewrite and an append to restore) before its commit fails; the
// rollback restores both, on both lanes, and the retry succeeds.
func TestClaimFailedCommitRollsBack(t *testing.T) {
	for lane, call := range lanes {
		t.Run(lane, func(t *testing.T) {
			ws := nt.Workspace(t)
			nt.Data(t, call(t, ws, "wu:create", input(t, validWU, nil)))
			release := lockIndex(t, ws)
			before := snap(t, ws)
			claim := `{"id":"WU-1","lane":"Core: API","branch_only":true}`
			out := call(t, ws, "wu:claim", claim)
			assert.Equal(t, tool.CodeGitError, nt.Code(t, out))
			assert.Equal(t, before, snap(t, ws), "the failed call left the workspace as it found it")

			release()
			d := nt.Data(t, call(t, ws, "wu:claim", claim))
			assert.Equal(t, "in_progress", d["status"])
		})
	}
}
