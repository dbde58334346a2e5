package events_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
)

func TestIDRecipe(t *testing.T) {
	// The canonical tuple written out by hand: sorted keys, no whitespace, no HTML
	// escaping, numbers as written.
	e := events.Event{
		Source: "ws1", RunID: "run-1", CallID: "call-1", Seq: 7, Kind: events.KindToolCalled,
		Payload: map[string]any{"tool": "wu:create", "b": []any{1.5, "<x>"}, "a": map[string]any{"z": true, "y": nil}},
	}
	canonical := `["ws1","run-1","call-1",7,"agent-runtime:tool_called",{"a":{"y":null,"z":true},"b":[1.5,"<x>"],"tool":"wu:create"}]`
	sum := sha256.Sum256([]byte("cmdbridge.event.v2\n" + canonical))
	id, err := events.ID(e)
	require.NoError(t, err)
	assert.Equal(t, hex.EncodeToString(sum[:]), id)
}

func TestIDStableAndDistinct(t *testing.T) {
	type pair struct{ B, A string }
	base := events.Event{Source: "s", RunID: "r", CallID: "c", Seq: 1, Kind: events.KindCommand,
		Payload: map[string]any{"command": "stop", "p": map[string]any{"A": "1", "B": "2"}}}
	id0, err := events.ID(base)
	require.NoError(t, err)

	tests := []struct {
		name   string
		change func(e events.Event) events.Event
		same   bool
	}{
		{"identical re-send", func(e events.Event) events.Event { return e }, true},
		{"struct payload with other field order", func(e events.Event) events.Event {
			e.Payload = map[string]any{"p": pair{B: "2", A: "1"}, "command": "stop"}
			return e
		}, true},
		{"timestamp, from, channel and claimed id are not inputs", func(e events.Event) events.Event {
			e.From, e.Channel, e.EventID = "someone", "ch", "x"
			e.Timestamp = e.Timestamp.AddDate(1, 0, 0)
			return e
		}, true},
		{"seq differs", func(e events.Event) events.Event { e.Seq = 2; return e }, false},
		{"source differs", func(e events.Event) events.Event { e.Source = "t"; return e }, false},
		{"run differs", func(e events.Event) events.Event { e.RunID = "r2"; return e }, false},
		{"call differs", func(e events.Event) events.Event { e.CallID = "c2"; return e }, false},
		{"kind differs", func(e events.Event) events.Event { e.Kind = events.KindToolCalled; return e }, false},
		{"payload differs", func(e events.Event) events.Event {
			e.Payload = map[string]any{"command": "go", "p": map[string]any{"A": "1", "B": "2"}}
			return e
		}, false},
		{"run and call swap", func(e events.Event) events.Event { e.RunID, e.CallID = e.CallID, e.RunID; return e }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := events.ID(tt.change(base))
			require.NoError(t, err)
			if tt.same {
				assert.Equal(t, id0, id)
			} else {
				assert.NotEqual(t, id0, id)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		event   events.Event
		wantErr error // nil: valid
	}{
		{"tool called", events.ToolCalled("r", "c", "wu:status", nil), nil},
		{"tool called without tool", events.Event{Kind: events.KindToolCalled, Payload: map[string]any{}}, events.ErrInvalidEvent},
		{"unknown kind", events.Event{Kind: "agent-runtime:nap"}, events.ErrUnknownKind},
		{"gap is not publishable", events.Event{Kind: events.KindGap}, events.ErrUnknownKind},
		{"turn started", events.TurnStarted("r", "t1", nil), nil},
		{"turn started without turn", events.TurnStarted("r", "", nil), events.ErrInvalidEvent},
		{"turn completed", events.TurnCompleted("r", "t1", map[string]any{"tokens": 12}), nil},
		{"aborted clean", events.TurnAborted("r", "t1", events.CleanupClean, "", nil), nil},
		{"aborted partial with action", events.TurnAborted("r", "t1", events.CleanupPartial, "cmdbridge call wu:unlock", nil), nil},
		{"aborted needs recovery without action", events.TurnAborted("r", "t1", events.CleanupNeedsRecovery, "", nil), events.ErrInvalidEvent},
		{"aborted unknown status", events.TurnAborted("r", "t1", "dirty", "x", nil), events.ErrInvalidEvent},
		{"aborted action not a string", events.TurnAborted("r", "t1", events.CleanupClean, "", map[string]any{"recovery_action": 3}), events.ErrInvalidEvent},
		{"approval requested", events.ApprovalRequested("ops", "r", "c", "ap1", "wu:delete", nil), nil},
		{"approval resolved", events.ApprovalResolved("ops", "r", "c", "ap1", events.DecisionDenied, nil), nil},
		{"approval resolved bad decision", events.ApprovalResolved("ops", "r", "c", "ap1", "maybe", nil), events.ErrInvalidEvent},
		{"command", events.Command("ops", "pause", nil), nil},
		{"command without command", events.Command("ops", "", nil), events.ErrInvalidEvent},
		{"helper fields cannot be overwritten by extras", events.Command("ops", "pause", map[string]any{"command": ""}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := events.Validate(tt.event)
			if tt.wantErr == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tt.wantErr)
			}
		})
	}
}

func TestDurableKinds(t *testing.T) {
	want := map[string]bool{
		events.KindToolCalled: false, events.KindTurnStarted: false, events.KindTurnCompleted: false,
		events.KindTurnAborted: false, events.KindApprovalRequested: true, events.KindApprovalResolved: true,
		events.KindCommand: true, events.KindCheckpoint: true,
	}
	require.Len(t, events.Kinds(), len(want))
	for _, k := range events.Kinds() {
		d, err := events.Durable(k)
		require.NoError(t, err)
		assert.Equal(t, want[k], d, k)
	}
	_, err := events.Durable("conductor:nope")
	assert.ErrorIs(t, err, events.ErrUnknownKind)
}
