package mcp

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
)

// TestAnApprovalExpires: an answer to a question asked longer ago than
// approvalValidity approves nothing, though it is signed for the very call; and a
// state signed for another caller approves nothing either.
func TestAnApprovalExpires(t *testing.T) {
	r := kernel.ApprovalRequest{Tool: "fx:wipe", Subject: "ws-1", Input: json.RawMessage(`{}`)}
	yes := &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}
	old := &elicitation{answer: yes, state: signState(r, time.Now().Add(-approvalValidity-time.Minute), "n1")}
	ok, err := old.fromAnswer(context.Background(), r)
	assert.False(t, ok)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "call again to be asked again")

	other := r
	other.Subject = "ws-2"
	forOther := &elicitation{answer: yes, state: signState(other, time.Now(), "n2")}
	ok, err = forOther.fromAnswer(context.Background(), r)
	assert.False(t, ok)
	assert.ErrorContains(t, err, "another caller")

	fresh := &elicitation{answer: yes, state: signState(r, time.Now(), "n3")}
	ok, err = fresh.fromAnswer(context.Background(), r)
	require.NoError(t, err)
	assert.True(t, ok)
}
