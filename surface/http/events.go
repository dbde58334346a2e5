package http

import (
	"github.com/cmdbridge/cmdbridge/kernel"
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
