package http

import (
	"context"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/events"
)

// ToolCalledKind is the event kind published for every finished call.
const ToolCalledKind = "agent-runtime:tool_called"

// ToolCalled is the kind-specific payload of one agent-runtime:tool_called event. From
// is the caller's subject as its token stated it, never anything from the call's input.
type ToolCalled struct {
	From       string  `json:"from"`
	RunID      string  `json:"run_id"`
	CallID     string  `json:"call_id"`
	Tool       string  `json:"tool"`
	Lane       string  `json:"lane,omitempty"`
	Status     string  `json:"status"`
	Success    bool    `json:"success"`
	ErrorCode  string  `json:"error_code,omitempty"`
	DurationMS float64 `json:"duration_ms"`
}

// ToolCalledHook returns a kernel.Config.OnResult hook that hands publish one ToolCalled
// per finished call, from every surface (HTTP, MCP) alike. The kernel calls it on the
// call's own goroutine before the result is returned, so publish must not block for
// long (queue or drop, as the event kind's delivery class says).
func ToolCalledHook(publish func(ToolCalled)) func(kernel.Request, kernel.Result) {
	return func(req kernel.Request, res kernel.Result) {
		r := res.Receipt
		publish(ToolCalled{
			From: req.Caller.Subject, RunID: r.RunID, CallID: r.ID, Tool: r.Tool, Lane: r.Lane,
			Status: r.Status, Success: res.Output.Success, ErrorCode: r.ErrorCode,
			DurationMS: float64(r.DurationUS) / 1000,
		})
	}
}

// Publisher is what PublishToolCalled needs of an event hub (surface/events.Hub).
type Publisher interface {
	Publish(ctx context.Context, e events.Event) (events.Event, error)
}

// PublishToolCalled returns a ToolCalledHook body that publishes each finished call on
// hub as agent-runtime:tool_called, from the caller's subject. tool_called is ephemeral:
// the hub drops it when nobody listens, so publishing never blocks a call for long. A
// publish error is handed to onError (nil: ignored); it never changes the call.
func PublishToolCalled(hub Publisher, onError func(error)) func(ToolCalled) {
	return func(tc ToolCalled) {
		e := events.ToolCalled(tc.RunID, tc.CallID, tc.Tool, map[string]any{
			"status": tc.Status, "success": tc.Success, "error_code": tc.ErrorCode,
			"lane": tc.Lane, "duration_ms": tc.DurationMS,
		})
		e.From = tc.From
		if _, err := hub.Publish(context.Background(), e); err != nil && onError != nil {
			onError(err)
		}
	}
}
