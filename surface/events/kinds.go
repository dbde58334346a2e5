package events

import (
	"errors"
	"fmt"
	"sort"
)

// Kinds of the stream. Approval, command and checkpoint kinds are durable (outbox,
// at-least-once); the others are ephemeral telemetry.
const (
	KindToolCalled        = "agent-runtime:tool_called"
	KindTurnStarted       = "agent-runtime:turn_started"
	KindTurnCompleted     = "agent-runtime:turn_completed"
	KindTurnAborted       = "agent-runtime:turn_aborted"
	KindApprovalRequested = "agent-runtime:approval_requested"
	KindApprovalResolved  = "agent-runtime:approval_resolved"
	KindCommand           = "conductor:command"
	// KindCheckpoint carries a signed tree head of the workspace's evidence log
	// (evidence.Checkpoint) to whoever keeps heads: the control plane.
	KindCheckpoint = "evidence:checkpoint"
)

// KindGap is the control event a resuming subscriber receives, without an SSE id, when
// the hub cannot replay everything after its Last-Event-ID. It cannot be published.
const KindGap = "stream:gap"

// CleanupStatus says what an aborted turn left behind.
type CleanupStatus string

// Cleanup statuses of agent-runtime:turn_aborted.
const (
	CleanupClean         CleanupStatus = "clean"
	CleanupPartial       CleanupStatus = "partial"
	CleanupNeedsRecovery CleanupStatus = "needs_recovery"
)

// Approval decisions of agent-runtime:approval_resolved.
const (
	DecisionApproved = "approved"
	DecisionDenied   = "denied"
	DecisionExpired  = "expired"
)

// ErrUnknownKind is wrapped by every error about a kind the stream does not carry.
var ErrUnknownKind = errors.New("unknown event kind")

// ErrInvalidEvent is wrapped by every error about a missing or malformed field.
var ErrInvalidEvent = errors.New("invalid event")

type kindSpec struct {
	durable  bool
	required []string // payload fields that must be non-empty strings
	check    func(p map[string]any) error
}

var kinds = map[string]kindSpec{
	KindToolCalled:        {required: []string{"tool"}},
	KindTurnStarted:       {required: []string{"turn_id"}},
	KindTurnCompleted:     {required: []string{"turn_id"}},
	KindTurnAborted:       {required: []string{"turn_id", "cleanup_status"}, check: checkAborted},
	KindApprovalRequested: {durable: true, required: []string{"approval_id", "tool"}},
	KindApprovalResolved:  {durable: true, required: []string{"approval_id", "decision"}, check: checkDecision},
	KindCommand:           {durable: true, required: []string{"command"}},
	KindCheckpoint:        {durable: true, required: []string{"root", "note", "verifier"}},
}

// Kinds lists every publishable kind, sorted.
func Kinds() []string {
	out := make([]string, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Durable reports whether kind goes through the outbox. An unknown kind is an error
// wrapping [ErrUnknownKind].
func Durable(kind string) (bool, error) {
	spec, ok := kinds[kind]
	if !ok {
		return false, fmt.Errorf("%w %q (known: %v)", ErrUnknownKind, kind, Kinds())
	}
	return spec.durable, nil
}

// Validate checks e's kind and the kind's required payload fields. Envelope fields the
// hub fills (id, timestamp, source, from, seq) are not required here.
func Validate(e Event) error {
	spec, ok := kinds[e.Kind]
	if !ok {
		return fmt.Errorf("%w %q (known: %v)", ErrUnknownKind, e.Kind, Kinds())
	}
	for _, f := range spec.required {
		s, ok := e.Payload[f].(string)
		if !ok || s == "" {
			return fmt.Errorf("%w: %s: payload.%s must be a non-empty string", ErrInvalidEvent, e.Kind, f)
		}
	}
	if spec.check != nil {
		if err := spec.check(e.Payload); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrInvalidEvent, e.Kind, err)
		}
	}
	return nil
}

func checkAborted(p map[string]any) error {
	status, _ := p["cleanup_status"].(string)
	action, hasAction := p["recovery_action"].(string)
	if _, present := p["recovery_action"]; present && !hasAction {
		return errors.New("payload.recovery_action must be a string")
	}
	switch CleanupStatus(status) {
	case CleanupClean:
		return nil
	case CleanupPartial, CleanupNeedsRecovery:
		// The operator is told what to run; nothing runs it automatically, so an
		// unclean abort without an action would leave them guessing.
		if action == "" {
			return fmt.Errorf("cleanup_status %s needs a non-empty payload.recovery_action", status)
		}
		return nil
	default:
		return fmt.Errorf("cleanup_status %q is not one of clean, partial, needs_recovery", status)
	}
}

func checkDecision(p map[string]any) error {
	switch d, _ := p["decision"].(string); d {
	case DecisionApproved, DecisionDenied, DecisionExpired:
		return nil
	default:
		return fmt.Errorf("decision %q is not one of approved, denied, expired", d)
	}
}

// withFields returns base plus extra; base wins so helpers' required fields cannot be
// overwritten by accident.
func withFields(base, extra map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(extra))
	for k, v := range extra {
		out[k] = v
	}
	for k, v := range base {
		out[k] = v
	}
	return out
}

// ToolCalled is an agent-runtime:tool_called event for a kernel call.
func ToolCalled(runID, callID, toolName string, extra map[string]any) Event {
	return Event{Kind: KindToolCalled, RunID: runID, CallID: callID,
		Payload: withFields(map[string]any{"tool": toolName}, extra)}
}

// TurnStarted is an agent-runtime:turn_started event.
func TurnStarted(runID, turnID string, extra map[string]any) Event {
	return Event{Kind: KindTurnStarted, RunID: runID,
		Payload: withFields(map[string]any{"turn_id": turnID}, extra)}
}

// TurnCompleted is an agent-runtime:turn_completed event.
func TurnCompleted(runID, turnID string, extra map[string]any) Event {
	return Event{Kind: KindTurnCompleted, RunID: runID,
		Payload: withFields(map[string]any{"turn_id": turnID}, extra)}
}

// TurnAborted is an agent-runtime:turn_aborted event. recoveryAction is the command an
// operator may run; it is required unless status is [CleanupClean] (Publish checks).
func TurnAborted(runID, turnID string, status CleanupStatus, recoveryAction string, extra map[string]any) Event {
	base := map[string]any{"turn_id": turnID, "cleanup_status": string(status)}
	if recoveryAction != "" {
		base["recovery_action"] = recoveryAction
	}
	return Event{Kind: KindTurnAborted, RunID: runID, Payload: withFields(base, extra)}
}

// ApprovalRequested is a durable agent-runtime:approval_requested event on channel.
func ApprovalRequested(channel, runID, callID, approvalID, toolName string, extra map[string]any) Event {
	return Event{Kind: KindApprovalRequested, Channel: channel, RunID: runID, CallID: callID,
		Payload: withFields(map[string]any{"approval_id": approvalID, "tool": toolName}, extra)}
}

// ApprovalResolved is a durable agent-runtime:approval_resolved event on channel;
// decision is one of approved, denied, expired.
func ApprovalResolved(channel, runID, callID, approvalID, decision string, extra map[string]any) Event {
	return Event{Kind: KindApprovalResolved, Channel: channel, RunID: runID, CallID: callID,
		Payload: withFields(map[string]any{"approval_id": approvalID, "decision": decision}, extra)}
}

// Command is a durable conductor:command event on channel.
func Command(channel, command string, extra map[string]any) Event {
	return Event{Kind: KindCommand, Channel: channel,
		Payload: withFields(map[string]any{"command": command}, extra)}
}

// CheckpointChannel is the channel of evidence:checkpoint events: heads leave in the
// order the log signed them.
const CheckpointChannel = "evidence"

// Checkpoint is a durable evidence:checkpoint event; payload is the published head
// (evidence.Checkpoint's fields: n, root, note, verifier, prev_n, proof).
func Checkpoint(payload map[string]any) Event {
	return Event{Kind: KindCheckpoint, Channel: CheckpointChannel, Payload: payload}
}
