package shadow_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/lane"
	"github.com/cmdbridge/cmdbridge/kernel/shadow"
	"github.com/cmdbridge/cmdbridge/tool"
)

// writer is a lane that writes content to file a of the call's directory and answers
// data; it reports the directory it ran in.
type writer struct {
	name, content, data string
	ran                 chan string
}

func (w writer) Name() string { return w.name }

func (w writer) Run(ctx context.Context, call lane.Call) tool.Output {
	if w.ran != nil {
		w.ran <- call.Dir
	}
	if err := os.WriteFile(filepath.Join(call.Dir, "a"), []byte(w.content), 0o644); err != nil {
		return tool.Fail(tool.CodeIOError, "%v", err)
	}
	return tool.OK(w.data)
}

// rejecting is a Binder that rejects every input.
type rejecting struct{}

func (rejecting) Name() string { return lane.Native }

func (r rejecting) Run(ctx context.Context, call lane.Call) tool.Output {
	return lane.RunBound(ctx, r, call)
}

func (rejecting) Bind(lane.Call) (func(context.Context) tool.Output, error) {
	return nil, errors.New("no such field")
}

func call(t *testing.T, ws string) (lane.Call, *lane.Notes) {
	t.Helper()
	notes := &lane.Notes{}
	return lane.Call{Spec: &tool.Spec{Name: "wu:edit"}, Route: lane.RouteShadow, Input: []byte(`{}`), Dir: ws, Notes: notes}, notes
}

// TestShadowServesThePrimaryAndComparesTheCopy: the primary's result is served and its
// name recorded; the secondary ran on a copy without the state directory; a difference
// in the answers and the trees is a mismatch, in the notes and the counts.
func TestShadowServesThePrimaryAndComparesTheCopy(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	ws := t.TempDir()
	state := filepath.Join(ws, "state")
	require.NoError(t, os.MkdirAll(state, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(state, "key"), []byte("secret"), 0o600))
	runs := shadow.New(state)
	ran := make(chan string, 1)
	l := runs.Lane(writer{name: lane.Adapter, content: "1", data: "served"}, writer{name: lane.Native, content: "2", data: "other", ran: ran})
	assert.Equal(t, lane.Adapter, l.Name())

	c, notes := call(t, ws)
	out := l.Run(context.Background(), c)
	require.True(t, out.Success)
	assert.Equal(t, "served", out.Data)
	copyDir := <-ran
	assert.NotEqual(t, ws, copyDir)
	assert.NoDirExists(t, filepath.Join(copyDir, "state"), "the state directory is never copied")
	note := notes.Shadow()
	require.NotNil(t, note)
	assert.False(t, note.Match)
	assert.Empty(t, note.Error)
	assert.NotEmpty(t, note.Diffs)
	assert.Equal(t, shadow.Stat{Runs: 1, Mismatches: 1}, runs.Stats()["wu:edit"])

	// The same answers and trees (of a workspace whose state lies outside it) match.
	same := runs.Lane(writer{name: lane.Adapter, content: "1", data: "served"}, writer{name: lane.Native, content: "1", data: "served"})
	c, notes = call(t, t.TempDir())
	require.True(t, same.Run(context.Background(), c).Success)
	require.NotNil(t, notes.Shadow())
	assert.True(t, notes.Shadow().Match, "%v", notes.Shadow().Diffs)
	assert.Equal(t, shadow.Stat{Runs: 2, Mismatches: 1}, runs.Stats()["wu:edit"])

	require.NoError(t, runs.Close())
	left, err := os.ReadDir(os.Getenv("TMPDIR"))
	require.NoError(t, err)
	assert.Empty(t, left, "Close removes the kept directories")
}

// TestShadowThatCannotBeMadeChangesNothing: a secondary that rejects the input is an
// error in the notes and the counts; the primary's result is served as it would be
// unshadowed.
func TestShadowThatCannotBeMadeChangesNothing(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	ws := t.TempDir()
	runs := shadow.New(filepath.Join(t.TempDir(), "state"))
	defer runs.Close()
	c, notes := call(t, ws)
	out := runs.Lane(writer{name: lane.Sandbox, content: "1", data: "served"}, rejecting{}).Run(context.Background(), c)
	require.True(t, out.Success)
	assert.Equal(t, "served", out.Data)
	require.NotNil(t, notes.Shadow())
	assert.Contains(t, notes.Shadow().Error, "native lane rejected the input: no such field")
	assert.Equal(t, shadow.Stat{Runs: 1, Errors: 1}, runs.Stats()["wu:edit"])

	// A primary that rejects the input fails the call as it would unshadowed.
	_, err := lane.Bind(runs.Lane(rejecting{}, writer{name: lane.Native}), c)
	assert.ErrorContains(t, err, "no such field")
}

// noting is a lane that leaves a key/value note and a sandbox note, and answers ok.
type noting struct{ name string }

func (n noting) Name() string { return n.name }

func (n noting) Run(ctx context.Context, call lane.Call) tool.Output {
	call.Notes.Note("git_commit", n.name)
	call.Notes.SetSandbox(&evidence.SandboxNote{Host: n.name})
	return tool.OK("ok")
}

// TestShadowKeepsTheSecondarysNotesOutOfTheServedCall: what the run on the copy notes
// never lands in the served call's notes; the primary's notes do.
func TestShadowKeepsTheSecondarysNotesOutOfTheServedCall(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	ws := t.TempDir()
	runs := shadow.New(filepath.Join(ws, "state"))
	t.Cleanup(func() { _ = runs.Close() })
	for _, tc := range []struct {
		name     string
		primary  lane.Lane
		want     map[string]string
		wantSbox *evidence.SandboxNote
	}{
		{name: "silent primary", primary: writer{name: lane.Adapter, content: "1", data: "ok"}},
		{name: "noting primary", primary: noting{name: lane.Adapter},
			want: map[string]string{"git_commit": lane.Adapter}, wantSbox: &evidence.SandboxNote{Host: lane.Adapter}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, notes := call(t, ws)
			out := runs.Lane(tc.primary, noting{name: lane.Native}).Run(context.Background(), c)
			require.True(t, out.Success, "%+v", out)
			require.NotNil(t, notes.Shadow(), "the comparison is recorded")
			assert.Equal(t, tc.want, notes.Values())
			assert.Equal(t, tc.wantSbox, notes.Sandbox())
		})
	}
}
