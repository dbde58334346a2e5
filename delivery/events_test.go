package delivery

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEventMarshalKeyOrder(t *testing.T) {
	ts := "2026-03-02T10:00:00.000Z"
	cases := []struct {
		ev   Event
		want string
	}{
		{Event{Type: EventCreate, WUID: "WU-12", Timestamp: ts, Lane: "Core: API", Title: "Add <health> & more"},
			`{"type":"create","wuId":"WU-12","timestamp":"2026-03-02T10:00:00.000Z","lane":"Core: API","title":"Add <health> & more"}`},
		{Event{Type: EventBlock, WUID: "WU-1", Timestamp: ts, Reason: "r", Lane: "ignored"},
			`{"type":"block","wuId":"WU-1","timestamp":"2026-03-02T10:00:00.000Z","reason":"r"}`},
		{Event{Type: EventCheckpoint, WUID: "WU-1", Timestamp: ts, Note: "n", NextSteps: "x"},
			`{"type":"checkpoint","wuId":"WU-1","timestamp":"2026-03-02T10:00:00.000Z","note":"n","nextSteps":"x"}`},
		{Event{Type: EventDelegation, WUID: "WU-2", Timestamp: ts, ParentWUID: "WU-1", DelegationID: "dlg-ab12"},
			`{"type":"delegation","wuId":"WU-2","timestamp":"2026-03-02T10:00:00.000Z","parentWuId":"WU-1","delegationId":"dlg-ab12"}`},
		{Event{Type: EventComplete, WUID: "WU-1", Timestamp: ts},
			`{"type":"complete","wuId":"WU-1","timestamp":"2026-03-02T10:00:00.000Z"}`},
	}
	for _, tc := range cases {
		t.Run(tc.ev.Type, func(t *testing.T) {
			line, err := storage.MarshalRecord(tc.ev)
			require.NoError(t, err)
			assert.Equal(t, tc.want+"\n", string(line))
			back, err := ParseEvent(line)
			require.NoError(t, err)
			want := tc.ev
			if want.Type == EventBlock {
				want.Lane = ""
			}
			assert.Equal(t, want, back)
		})
	}
}

func TestLoadEventsReplayAndWarnings(t *testing.T) {
	root := t.TempDir()
	log := strings.Join([]string{
		`{"type":"create","wuId":"WU-1","timestamp":"2026-03-02T10:00:00.000Z","lane":"L","title":"T"}`,
		`{"type":"claim","wuId":"WU-1","timestamp":"2026-03-02T11:00:00.000Z","lane":"L","title":"T"}`,
		``,
		`not json`,
		`{"type":"block","wuId":"WU-1","timestamp":"2026-03-02T12:00:00.000Z","reason":""}`,
		`{"type":"explode","wuId":"WU-1","timestamp":"2026-03-02T12:00:00.000Z"}`,
		`{"type":"block","wuId":"WU-1","timestamp":"2026-03-02T12:00:00.000Z","reason":"infra"}`,
		`{"type":"checkpoint","wuId":"WU-1","timestamp":"2026-03-02T13:00:00.000Z","note":"n"}`,
		`{"type":"create","wuId":"WU-2","timestamp":"yesterday","lane":"L","title":"T"}`,
		`{"type":"create","wuId":"WU-3","timestamp":"2026-03-02T10:00:00.000Z","lane":"L","title":"T"}`,
		`{"type":"claim","wuId":"WU-3","timestamp":"2026-03-02T10:00:00.000Z","lane":"L","title":"T"}`,
		`{"type":"complete","wuId":"WU-3","timestamp":"2026-03-02T10:00:00.000Z"}`,
	}, "\n") + "\n"
	writeFile(t, filepath.Join(root, EventsFile), log)
	l, err := LoadEvents(root)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"WU-1": "blocked", "WU-3": "done"}, l.Replay())
	assert.Len(t, l.For("WU-1"), 4)
	assert.Equal(t, []string{
		"wu-events.jsonl line 4: invalid JSON: invalid character 'o' in literal null (expecting 'u')",
		"wu-events.jsonl line 5: block event needs a non-empty reason",
		`wu-events.jsonl line 6: unknown event type "explode"`,
		`wu-events.jsonl line 9: invalid timestamp "yesterday"`,
	}, l.Warnings())
	st, ok := l.State("WU-1")
	assert.True(t, ok)
	assert.Equal(t, "blocked", st)
	_, ok = l.State("WU-9")
	assert.False(t, ok)
	assert.Equal(t, 3, l.MaxWUNumber())

	assert.True(t, Consistent("", false, "ready"))
	assert.True(t, Consistent("done", true, "completed"))
	assert.False(t, Consistent("in_progress", true, "ready"))
}

func TestAppendAndRewriteEvents(t *testing.T) {
	root := t.TempDir()
	ts := "2026-03-02T10:00:00.000Z"
	require.NoError(t, AppendEvents(root,
		Event{Type: EventCreate, WUID: "WU-1", Timestamp: ts, Lane: "L", Title: "T"},
		Event{Type: EventClaim, WUID: "WU-1", Timestamp: ts, Lane: "L", Title: "T"}))
	assert.Error(t, AppendEvents(root, Event{Type: EventBlock, WUID: "WU-1", Timestamp: ts}), "invalid events are refused")
	l, err := LoadEvents(root)
	require.NoError(t, err)
	require.Len(t, l.Lines, 2)
	require.NoError(t, RewriteEvents(root, [][]byte{l.Lines[0].Raw}))
	data, err := os.ReadFile(EventsPath(root))
	require.NoError(t, err)
	assert.Equal(t, `{"type":"create","wuId":"WU-1","timestamp":"2026-03-02T10:00:00.000Z","lane":"L","title":"T"}`+"\n", string(data))
}

// TestEventLogForUsesFileOrderPerWU checks the per-WU index behind For and State: each
// WU's valid events in file order, invalid lines left out, and a caller editing or
// appending to one WU's events never changes what the log returns next.
func TestEventLogForUsesFileOrderPerWU(t *testing.T) {
	root := t.TempDir()
	log := strings.Join([]string{
		`{"type":"claim","wuId":"WU-1","timestamp":"2026-03-02T10:00:00.000Z","lane":"L","title":"a"}`,
		`{"type":"claim","wuId":"WU-2","timestamp":"2026-03-02T10:01:00.000Z","lane":"L","title":"b"}`,
		`{"type":"block","wuId":"WU-1","timestamp":"bad"}`,
		`{"type":"complete","wuId":"WU-1","timestamp":"2026-03-02T11:00:00.000Z"}`,
		`{"type":"release","wuId":"WU-2","timestamp":"2026-03-02T11:01:00.000Z","reason":"r"}`,
	}, "\n") + "\n"
	require.NoError(t, os.MkdirAll(filepath.Dir(EventsPath(root)), 0o755))
	require.NoError(t, os.WriteFile(EventsPath(root), []byte(log), 0o644))
	l, err := LoadEvents(root)
	require.NoError(t, err)
	types := func(evs []Event) []string {
		var out []string
		for _, e := range evs {
			out = append(out, e.Type)
		}
		return out
	}
	assert.Equal(t, []string{EventClaim, EventComplete}, types(l.For("WU-1")))
	assert.Equal(t, []string{EventClaim, EventRelease}, types(l.For("WU-2")))
	assert.Empty(t, l.For("WU-3"))
	mine := l.For("WU-1")
	mine[0].Type = EventBlock
	grown := append(mine, Event{Type: EventBlock})
	assert.Len(t, grown, 3)
	assert.Equal(t, []string{EventClaim, EventComplete}, types(l.For("WU-1")), "what a caller does with its slice stays its own")
	for _, id := range []string{"WU-1", "WU-2", "WU-3"} {
		state, has := l.State(id)
		replayed, ok := l.Replay()[id]
		assert.Equal(t, ok, has, id)
		assert.Equal(t, replayed, state, id)
	}
}

// TestExtendSharesNothingVisible extends one log twice (as two readers of the same
// cached log would) and a log extended before: every log must answer as a log parsed
// from its own lines does, whatever was extended after it.
func TestExtendSharesNothingVisible(t *testing.T) {
	line := func(n int, typ, id string) storage.Line {
		return storage.Line{N: n, Raw: []byte(fmt.Sprintf(`{"type":%q,"wuId":%q,"timestamp":"2026-03-01T10:00:%02d.000Z","lane":"L","title":"t"}`, typ, id, n))}
	}
	base := []storage.Line{line(1, "create", "WU-1"), line(2, "create", "WU-2"), line(3, "claim", "WU-1")}
	fresh := func(lines ...storage.Line) *EventLog { return EventLogOf(lines) }
	check := func(t *testing.T, got *EventLog, lines []storage.Line) {
		t.Helper()
		want := fresh(lines...)
		assert.Equal(t, want.Lines, got.Lines)
		for _, id := range []string{"WU-1", "WU-2", "WU-3"} {
			assert.Equal(t, want.For(id), got.For(id), id)
			ws, wok := want.State(id)
			gs, gok := got.State(id)
			assert.Equal(t, [2]any{ws, wok}, [2]any{gs, gok}, id)
		}
	}
	old := fresh(base...)
	old.For("WU-1") // the index built before the extensions
	a1 := old.Extend([]storage.Line{line(4, "block", "WU-1")})
	a2 := a1.Extend([]storage.Line{line(5, "unblock", "WU-1"), line(6, "claim", "WU-2")})
	b1 := old.Extend([]storage.Line{line(4, "claim", "WU-2"), line(5, "create", "WU-3")}) // copies
	a3 := a1.Extend([]storage.Line{line(5, "release", "WU-1")})                           // copies
	b2 := b1.Extend([]storage.Line{line(6, "block", "WU-2")})
	check(t, old, base)
	check(t, a1, append(slices.Clone(base), line(4, "block", "WU-1")))
	check(t, a2, append(slices.Clone(base), line(4, "block", "WU-1"), line(5, "unblock", "WU-1"), line(6, "claim", "WU-2")))
	check(t, a3, append(slices.Clone(base), line(4, "block", "WU-1"), line(5, "release", "WU-1")))
	check(t, b1, append(slices.Clone(base), line(4, "claim", "WU-2"), line(5, "create", "WU-3")))
	check(t, b2, append(slices.Clone(base), line(4, "claim", "WU-2"), line(5, "create", "WU-3"), line(6, "block", "WU-2")))
	// A holder appending to a log's lines must not write into another log's.
	_ = append(a1.Lines, EventLine{N: 99})
	check(t, a2, append(slices.Clone(base), line(4, "block", "WU-1"), line(5, "unblock", "WU-1"), line(6, "claim", "WU-2")))
}
