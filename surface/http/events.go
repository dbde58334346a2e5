package http

import (
	"context"
	"fmt"
	nethttp "net/http"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/events"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/tool"
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
	// Rule, RequiredApprovals and InputHash describe a call refused with
	// APPROVAL_REQUIRED: the policy rule that asked, the approvals the tool declares,
	// and the receipt's input hash (what an approver re-runs must hash the same).
	Rule              string   `json:"rule,omitempty"`
	RequiredApprovals []string `json:"required_approvals,omitempty"`
	InputHash         string   `json:"input_hash,omitempty"`
	// StdinHash is the receipt's stdin hash when the refused call had stdin: a re-run
	// must carry the same stdin too.
	StdinHash string `json:"stdin_hash,omitempty"`
	// AskedClient: the refusal only deferred the question to the calling MCP client
	// (elicitation; kernel details asked_out_of_band), which retries with the answer, so
	// no operator approval is requested.
	AskedClient bool `json:"asked_client,omitempty"`
}

// ToolCalledHook returns a kernel.Config.OnResult hook that hands publish one ToolCalled
// per finished call, from every surface (HTTP, MCP) alike. The kernel calls it on the
// call's own goroutine before the result is returned, so publish must not block for
// long (queue or drop, as the event kind's delivery class says).
func ToolCalledHook(publish func(ToolCalled)) func(kernel.Request, kernel.Result) {
	return func(req kernel.Request, res kernel.Result) {
		r := res.Receipt
		tc := ToolCalled{
			From: req.Caller.Subject, RunID: r.RunID, CallID: r.ID, Tool: r.Tool, Lane: r.Lane,
			Status: r.Status, Success: res.Output.Success, ErrorCode: r.ErrorCode,
			DurationMS: float64(r.DurationUS) / 1000,
		}
		if r.ErrorCode == tool.CodeApprovalRequired {
			tc.Rule, tc.InputHash, tc.StdinHash = r.Rule, r.InputHash, r.StdinHash
			if res.Output.Error != nil {
				d, _ := res.Output.Error.Details.(map[string]any)
				tc.RequiredApprovals, _ = d["required_approvals"].([]string)
				tc.AskedClient, _ = d["asked_out_of_band"].(bool)
			}
		}
		publish(tc)
	}
}

// Publisher is what PublishToolCalled needs of an event hub (surface/events.Hub).
type Publisher interface {
	Publish(ctx context.Context, e events.Event) (events.Event, error)
}

// PublishToolCalled returns a ToolCalledHook body that publishes each finished call on
// hub as agent-runtime:tool_called, from the caller's subject. tool_called is ephemeral:
// the hub drops it when nobody listens, so publishing never blocks a call for long.
//
// A call refused with APPROVAL_REQUIRED (HTTP calls, and MCP calls of clients that
// cannot elicit, are non-interactive) also publishes, unless the caller already has
// MaxPendingApprovals unacknowledged, a durable
// agent-runtime:approval_requested on the caller's channel (its subject), with the call
// id as approval_id: an operator UI sees it through the outbox even if it connects
// later. Nothing waits for an answer; approving means re-running the call interactively
// elsewhere. A refusal that only deferred the question to an eliciting MCP client
// (AskedClient) publishes no approval_requested. A publish error is handed to onError
// (nil: ignored); it never changes the call.
func PublishToolCalled(hub Publisher, onError func(error)) func(ToolCalled) {
	report := func(err error) {
		if err != nil && onError != nil {
			onError(err)
		}
	}
	return func(tc ToolCalled) {
		e := events.ToolCalled(tc.RunID, tc.CallID, tc.Tool, map[string]any{
			"status": tc.Status, "success": tc.Success, "error_code": tc.ErrorCode,
			"lane": tc.Lane, "duration_ms": tc.DurationMS,
		})
		e.From = tc.From
		_, err := hub.Publish(context.Background(), e)
		report(err)
		if tc.ErrorCode != tool.CodeApprovalRequired || tc.AskedClient {
			return
		}
		approvals := tc.RequiredApprovals
		if approvals == nil {
			approvals = []string{}
		}
		payload := map[string]any{
			"rule": tc.Rule, "required_approvals": approvals, "input_hash": tc.InputHash,
			"resolution": ApprovalResolution,
		}
		if tc.StdinHash != "" {
			payload["stdin_hash"] = tc.StdinHash
		}
		if b, ok := hub.(backlogger); ok {
			// Durable, like a command: one subject's refusals may not fill the outbox.
			// The call is refused all the same; only its request event is not kept.
			if n, _ := b.Backlog(tc.From, events.KindApprovalRequested); n >= MaxPendingApprovals {
				report(fmt.Errorf("approval_requested of call %s not published: %s already has %d unacknowledged", tc.CallID, tc.From, n))
				return
			}
		}
		a := events.ApprovalRequested(tc.From, tc.RunID, tc.CallID, tc.CallID, tc.Tool, payload)
		a.From = tc.From
		_, err = hub.Publish(context.Background(), a)
		report(err)
	}
}

// MaxPendingApprovals bounds the unacknowledged approval_requested events one subject
// may have in the outbox: past it, a refused call's request is not published (the
// refusal itself is unchanged), until some are acknowledged.
const MaxPendingApprovals = 1024

// ApprovalResolution is the resolution an approval_requested event states: the refused
// call does not wait, so approving it means running it again where a person can answer.
const ApprovalResolution = "re-run the call interactively (cmdbridge call --interactive on the workspace); this request does not wait"

// eventsFor is the request's context limited to the events c may watch and
// acknowledge: those whose from or channel is c's subject, or a subject its event globs
// match. Another subject's approval requests and commands stay invisible to it, and
// acknowledging them counts as acknowledging unknown ids.
func eventsFor(r *nethttp.Request, c token.Claims) context.Context {
	return events.WithVisibility(r.Context(), func(from, channel string) bool {
		return c.SeesEventsOf(from) || (channel != "" && c.SeesEventsOf(channel))
	})
}
