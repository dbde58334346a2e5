package http_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/tool"
)

type kindRecorder struct{ kinds []string }

func (r *kindRecorder) Publish(_ context.Context, e events.Event) (events.Event, error) {
	r.kinds = append(r.kinds, e.Kind)
	return e, nil
}

// TestApprovalAskedOfTheClientIsNoOperatorRequest: an APPROVAL_REQUIRED whose question
// went to the calling MCP client (elicitation) publishes tool_called only; any other
// APPROVAL_REQUIRED also asks the operator with a durable approval_requested.
func TestApprovalAskedOfTheClientIsNoOperatorRequest(t *testing.T) {
	refusal := func(details map[string]any) kernel.Result {
		return kernel.Result{Output: tool.FailDetails(tool.CodeApprovalRequired, details, "needs approval"),
			Receipt: evidence.Receipt{ID: "call-1", RunID: "run-1", Tool: "fx:wipe", Status: "refused",
				ErrorCode: tool.CodeApprovalRequired, Rule: "default-destructive-ask"}}
	}
	for _, tc := range []struct {
		name    string
		details map[string]any
		want    int
	}{
		{"asked of the client", map[string]any{"rule": "default-destructive-ask", "asked_out_of_band": true}, 1},
		{"nobody asked", map[string]any{"rule": "default-destructive-ask"}, 2},
	} {
		var rec kindRecorder
		hook := surfacehttp.ToolCalledHook(surfacehttp.PublishToolCalled(&rec, nil))
		hook(kernel.Request{Caller: kernel.Caller{Subject: "ws-1:agent"}}, refusal(tc.details))
		assert.Len(t, rec.kinds, tc.want, "%s: %v", tc.name, rec.kinds)
	}
}
