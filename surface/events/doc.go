// Package events is cmdbridge's outbound event stream: the version-2 envelope
// ([Event]), its content-hashed ids ([ID]), the kinds it carries and their required
// fields ([Validate], [TurnAborted] and the other constructors), and a [Hub] that serves
// the stream as Server-Sent Events (GET /events, POST /events/ack) with resume, backed
// by an on-disk outbox for durable kinds. docs/events.md is the consumer's manual.
//
// Invariants:
//
//   - Every published event has schema_version 2, a known kind with its required
//     payload fields, and event_id = hex sha256 over source, run id, call id, seq, kind
//     and the canonical JSON of the payload. The same inputs always give the same id;
//     two publishes of identical content get different seqs and so different ids.
//
//   - Stream ids (the SSE "id:") strictly increase for the life of an outbox directory,
//     across clean restarts and crashes (ids are reserved in blocks on disk before use).
//
//   - A durable kind (approvals, conductor commands) is appended to the outbox and
//     fsynced before Publish returns, and is replayed, with the same event_id and stream
//     id, to every fresh stream until acknowledged: at-least-once, FIFO per channel,
//     never dropped for a slow consumer. Acknowledged events are compacted away.
//
//   - An ephemeral kind is dropped silently when no subscriber is connected, and
//     dropped (and counted, and announced to that stream as a comment) when a
//     subscriber's bounded queue is full. A publisher never waits for a subscriber.
//
//   - A stream resumed with Last-Event-ID N receives exactly the kept events after N,
//     in order, then live ones; when the hub cannot prove it still holds everything
//     after N it first sends a stream:gap control event without an id.
//
//   - One hub per outbox directory (an exclusive flock; a second hub fails at once).
//
//   - A stream and an acknowledgement are limited to the [Visibility] the request's
//     context carries ([WithVisibility]): events it does not let the viewer see are
//     never queued, replayed or retired for that viewer.
//
//   - Config.Forward, when set, sees every accepted event in stream order, durable ones
//     after their outbox commit, whether or not anyone subscribes; it runs under the
//     hub's lock and must not block (surface/broker queues and returns).
//
// The package never authenticates and never decides who may see which event (the HTTP
// surface turns a token into a Visibility); it never runs a recovery_action: it only
// carries it to the operator.
package events
