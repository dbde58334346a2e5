package events

import "context"

// Visibility decides which events one viewer may receive and acknowledge, from the
// subjects an event speaks for: its from and its channel. A nil Visibility sees every
// event (a hub used without authentication, or an operator's own process).
type Visibility func(from, channel string) bool

func (v Visibility) sees(it *item) bool { return v == nil || v(it.from, it.channel) }

type visibilityKey struct{}

// WithVisibility returns a context that makes the hub's handler (GET /events, POST
// /events/ack) serve the request as a viewer limited to v. The authenticating server
// sets it from the caller's credentials before the handler runs.
func WithVisibility(ctx context.Context, v Visibility) context.Context {
	return context.WithValue(ctx, visibilityKey{}, v)
}

func visibilityOf(ctx context.Context) Visibility {
	v, _ := ctx.Value(visibilityKey{}).(Visibility)
	return v
}
