package ops

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestMemCheckpoint(t *testing.T) {
	f := newFixture(t)
	_, _, err := MemCheckpoint(t.Context(), f.ws, f.rt, MemCheckpointInput{Note: " \t"})
	requireCode(t, tool.CodeValidation, err)

	id := f.create("Docs")
	f.write(delivery.SessionFile, `{"session_id":"s-1","wu_id":"`+id+`"}`)
	data, notes, err := MemCheckpoint(t.Context(), f.ws, f.rt, MemCheckpointInput{Note: "api done", Progress: "half"})
	require.NoError(t, err)
	assert.True(t, data.EventAppended, "the session's WU exists, so the event is logged")
	assert.Equal(t, id, data.Node.WUID)
	assert.Equal(t, "s-1", data.Node.SessionID)
	assert.Equal(t, "Checkpoint: api done", data.Node.Content)
	assert.Equal(t, "Checkpoint "+data.Node.ID+" recorded", notes.Headline)
	assert.Contains(t, f.read(delivery.EventsFile), `"type":"checkpoint"`)

	data, _, err = MemCheckpoint(t.Context(), f.ws, f.rt, MemCheckpointInput{Note: "elsewhere", WU: "WU-99"})
	require.NoError(t, err)
	assert.False(t, data.EventAppended, "no event for a WU the log cannot replay")
	assert.Empty(t, data.Node.SessionID, "an explicit WU keeps the session unset")
}

func TestMemSignalAndInbox(t *testing.T) {
	f := newFixture(t)
	_, _, err := MemSignal(t.Context(), f.ws, f.rt, MemSignalInput{Message: "   "})
	requireCode(t, tool.CodeValidation, err)

	f.write(delivery.SessionFile, `not json`)
	sent, notes, err := MemSignal(t.Context(), f.ws, f.rt, MemSignalInput{Message: "  ready for review ", Lane: "Docs"})
	require.NoError(t, err)
	assert.Equal(t, "ready for review", sent.Signal.Message)
	assert.Equal(t, delivery.DefaultSignalType, sent.Signal.Type)
	assert.Equal(t, delivery.DefaultSignalSender, sent.Signal.Sender)
	assert.Equal(t, "Signal "+sent.Signal.ID+" sent", notes.Headline)
	require.Len(t, notes.Warnings, 1, "a broken session file is a warning")

	_, _, err = MemInbox(t.Context(), f.ws, f.rt, MemInboxInput{Since: "yesterday"})
	requireCode(t, tool.CodeUsage, err)

	inbox, notes, err := MemInbox(t.Context(), f.ws, f.rt, MemInboxInput{Lane: "Docs", Mark: true})
	require.NoError(t, err)
	require.Len(t, inbox.Signals, 1)
	assert.Equal(t, []string{sent.Signal.ID}, inbox.Marked)
	assert.Equal(t, "1 signal(s)\n"+sent.Signal.CreatedAt+" [Docs]\n  "+sent.Signal.ID+": ready for review\n", notes.Text)

	inbox, notes, err = MemInbox(t.Context(), f.ws, f.rt, MemInboxInput{})
	require.NoError(t, err)
	assert.Empty(t, inbox.Signals, "marked signals are read")
	assert.Equal(t, []string{}, inbox.Marked)
	assert.Equal(t, "No signals found.\n", notes.Text)

	inbox, _, err = MemInbox(t.Context(), f.ws, f.rt, MemInboxInput{All: true, Since: "1h"})
	require.NoError(t, err)
	require.Len(t, inbox.Signals, 1)
	assert.True(t, inbox.Signals[0].Read)
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Time
		ok   bool
		code string
	}{
		{"", time.Time{}, false, ""},
		{"30m", now.Add(-30 * time.Minute), true, ""},
		{"7d", now.Add(-7 * 24 * time.Hour), true, ""},
		{"2026-03-01", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), true, ""},
		{"2026-03-01T12:00:00+02:00", time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), true, ""},
		{"2026-3-1", time.Time{}, false, tool.CodeUsage},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got, ok, err := ParseSince("since", tc.in, now)
			if tc.code != "" {
				requireCode(t, tc.code, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.ok, ok)
			assert.True(t, tc.want.Equal(got), "%s != %s", got, tc.want)
		})
	}
}

func TestCutSummaryLine(t *testing.T) {
	assert.Equal(t, strings.Repeat("x", 200), cutSummaryLine(strings.Repeat("x", 200)))
	assert.Equal(t, strings.Repeat("x", 197)+"...", cutSummaryLine(strings.Repeat("x", 201)))
	assert.Equal(t, strings.Repeat("é", 197)+"...", cutSummaryLine(strings.Repeat("é", 201)), "counts characters, not bytes")
}

func TestFirstSentence(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"The DB is slow. Cache it.", "The DB is slow"},
		{"Why is it flaky? No idea", "Why is it flaky"},
		{"Boom! again", "Boom"},
		{"no terminator\nsecond line. x", "no terminator"},
		{strings.Repeat("a", 81), strings.Repeat("a", 77) + "..."},
		{strings.Repeat("é", 80), strings.Repeat("é", 80)},
	} {
		assert.Equal(t, tc.want, firstSentence(tc.in), tc.in)
	}
}
