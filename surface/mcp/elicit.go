package mcp

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Approval by elicitation. When the client of a tools/call declared the elicitation
// capability, a person stands behind it who can be asked: the call is interactive, and
// an "ask" decision becomes a question to that person instead of APPROVAL_REQUIRED.
//
// The question travels as a multi round-trip input request (SEP-2322), which the SDK
// also serves to clients of older protocol versions by sending elicitation/create and
// calling the handler again with the answer:
//
//  1. the kernel's approver for the first round defers (kernel.ErrApprovalDeferred):
//     that kernel call ends APPROVAL_REQUIRED with its receipt and runs nothing, and the
//     handler answers with inputRequests[ApprovalInputKey] (a form with one boolean,
//     "approve") and a requestState binding the question to this tool, input and stdin;
//  2. the retried call carries the person's answer; its approver approves only an
//     "accept" with approve true whose requestState matches the call it now answers
//     (another tool, input or stdin is APPROVAL_DENIED); decline and cancel are
//     APPROVAL_DENIED.

// ApprovalInputKey is the inputRequests key of the approval question.
const ApprovalInputKey = "cmdbridge/approval"

// stateKey signs requestState values: a retry can only carry an answer to a question
// this process asked about that very tool and input.
var stateKey = func() []byte {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("mcp: no randomness for the approval state key: " + err.Error())
	}
	return b
}()

// elicitation is the approval side of one tools/call whose client can elicit.
type elicitation struct {
	asked  *kernel.ApprovalRequest // the question the kernel deferred (first round)
	answer sdkmcp.InputResponse    // the person's answer (retry)
	state  string                  // the requestState the retry echoed
}

// askClient makes kreq interactive, with an approval by elicitation, when the client
// declared the elicitation capability (form mode); otherwise it leaves kreq alone and
// returns nil: the call stays non-interactive and "ask" is APPROVAL_REQUIRED.
func askClient(req *sdkmcp.CallToolRequest, kreq *kernel.Request) *elicitation {
	if req == nil || req.Params == nil || !canElicit(req.ClientCapabilities()) {
		return nil
	}
	e := &elicitation{}
	kreq.Interactive = true
	if answer, ok := req.Params.InputResponses[ApprovalInputKey]; ok {
		e.answer, e.state = answer, req.Params.RequestState
		kreq.Approver = kernel.ApproverFunc(e.fromAnswer)
	} else {
		kreq.Approver = kernel.ApproverFunc(e.deferToClient)
	}
	return e
}

// canElicit: the client can show a form (a capability without modes means form).
func canElicit(caps *sdkmcp.ClientCapabilities) bool {
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	return caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
}

func (e *elicitation) deferToClient(_ context.Context, r kernel.ApprovalRequest) (bool, error) {
	e.asked = &r
	return false, kernel.ErrApprovalDeferred
}

func (e *elicitation) fromAnswer(_ context.Context, r kernel.ApprovalRequest) (bool, error) {
	answer, ok := e.answer.(*sdkmcp.ElicitResult)
	if !ok {
		return false, errors.New("the client's answer is not an elicitation result")
	}
	if !hmac.Equal([]byte(e.state), []byte(approvalState(r))) {
		return false, errors.New("the client's answer was given for another call (tool, input or stdin differs)")
	}
	if answer.Action != "accept" {
		return false, nil
	}
	approve, _ := answer.Content["approve"].(bool)
	return approve, nil
}

// inputRequired is the result that asks the client for the deferred approval, or nil
// when this call needs no question (it ran, or was refused for another reason).
func (e *elicitation) inputRequired(res kernel.Result) *sdkmcp.CallToolResult {
	if e == nil || e.asked == nil || res.Output.Error == nil || res.Output.Error.Code != tool.CodeApprovalRequired {
		return nil
	}
	r := e.asked
	return &sdkmcp.CallToolResult{
		InputRequests: sdkmcp.InputRequestMap{ApprovalInputKey: &sdkmcp.ElicitParams{
			Mode:    "form",
			Message: approvalMessage(*r),
			RequestedSchema: &jsonschema.Schema{
				Type: "object",
				Properties: map[string]*jsonschema.Schema{
					"approve": {Type: "boolean", Title: "Approve",
						Description: fmt.Sprintf("Run %s with the input shown", r.Tool)},
				},
				Required: []string{"approve"},
			},
		}},
		RequestState: approvalState(*r),
	}
}

// maxShownValue bounds each input value quoted in the question (every property is
// shown, each value cut after this many bytes: kernel.ApprovalRequest.ShownInput).
const maxShownValue = 500

func approvalMessage(r kernel.ApprovalRequest) string {
	msg := fmt.Sprintf("Approve a %s call of %s?\nPolicy rule: %s\nInput:\n%s", r.Effect, r.Tool, r.Rule, r.ShownInput(maxShownValue))
	if r.StdinHash != "" {
		msg += "\nStdin: SHA-256 " + r.StdinHash
	}
	if r.Subject != "" {
		msg += "\nCaller: " + r.Subject
	}
	return msg
}

// approvalState binds an answer to the tool, canonical input and stdin it was asked
// about.
func approvalState(r kernel.ApprovalRequest) string {
	m := hmac.New(sha256.New, stateKey)
	m.Write([]byte(r.Tool))
	m.Write([]byte{0})
	m.Write([]byte(r.StdinHash))
	m.Write([]byte{0})
	m.Write(r.Input)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
