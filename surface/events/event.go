package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// SchemaVersion is the envelope version every event carries.
const SchemaVersion = 2

// Event is the envelope of everything the stream carries. Kind-specific fields live in
// Payload, never beside the envelope fields, so the envelope is a closed set and a
// payload field can never shadow one of them.
type Event struct {
	// SchemaVersion is always [SchemaVersion]; Publish fills it.
	SchemaVersion int `json:"schema_version"`
	// Kind is "<pack>:<event>", one of the kinds in kinds.go.
	Kind string `json:"kind"`
	// EventID is the content hash computed by [ID]; Publish fills it. Consumers dedupe
	// on it.
	EventID string `json:"event_id"`
	// Timestamp is when the event was first published (Config.Now when zero). It is not
	// part of the id, so a re-send keeps its id.
	Timestamp time.Time `json:"timestamp"`
	// From is the subject the event speaks for (the workspace or device subject of the
	// token); Config.From, then Config.Source, when empty.
	From string `json:"from"`
	// Source names the producer (Config.Source when empty). Part of the id.
	Source string `json:"source"`
	// RunID and CallID tie the event to a kernel run and call. Part of the id.
	RunID  string `json:"run_id,omitempty"`
	CallID string `json:"call_id,omitempty"`
	// Seq is the publisher's sequence number. Publish sets it to the hub's stream
	// sequence when zero; a re-send passes the original Seq and so keeps its id. Two
	// events with identical content differ by Seq.
	Seq uint64 `json:"seq"`
	// Channel orders durable events: delivery is FIFO per channel.
	Channel string `json:"channel,omitempty"`
	// Payload carries the kind-specific fields. Publish stores it in canonical form
	// (every object a map, numbers as json.Number), so what subscribers and the outbox
	// see is exactly what was hashed.
	Payload map[string]any `json:"payload"`
}

// idDomain separates this hash from any other sha256 over similar JSON.
const idDomain = "cmdbridge.event.v2\n"

// ID returns the event id of e: the lowercase hex sha256 of idDomain followed by the
// canonical JSON array [source, run_id, call_id, seq, kind, payload]. Canonical JSON has
// object keys sorted, no insignificant whitespace and no HTML escaping; numbers keep
// their literal form. Timestamp, From, Channel and EventID itself are not inputs.
func ID(e Event) (string, error) {
	payload := e.Payload
	if payload == nil {
		payload = map[string]any{}
	}
	tuple := []any{e.Source, e.RunID, e.CallID, e.Seq, e.Kind, payload}
	b, err := canonicalJSON(tuple)
	if err != nil {
		return "", fmt.Errorf("event %s: id: %w", e.Kind, err)
	}
	h := sha256.New()
	h.Write([]byte(idDomain))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// canonicalJSON encodes v with sorted keys and no insignificant whitespace. Structs are
// first round-tripped through a generic value so their keys sort like a map's.
func canonicalJSON(v any) ([]byte, error) {
	generic, err := normalize(v)
	if err != nil {
		return nil, err
	}
	return encodeCompact(generic)
}

// normalize round-trips v through JSON into maps, slices, strings, bools, nil and
// json.Number, the only shapes canonical encoding needs.
func normalize(v any) (any, error) {
	raw, err := encodeCompact(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	return out, nil
}

func encodeCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// normalizePayload returns p in canonical generic form.
func normalizePayload(p map[string]any) (map[string]any, error) {
	if p == nil {
		return map[string]any{}, nil
	}
	n, err := normalize(p)
	if err != nil {
		return nil, err
	}
	m, ok := n.(map[string]any)
	if !ok {
		return nil, errors.New("payload is not a JSON object")
	}
	return m, nil
}
