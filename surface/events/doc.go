// Package events is cmdbridge's outbound event stream: the version-2 envelope, its
// content-hashed ids, a Server-Sent Events handler with resume, and an on-disk outbox
// that keeps durable events until a consumer acknowledges them.
//
// TODO: full invariants (see docs/events.md).
package events
