package mcp

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

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
	issued, nonce, ok := parseState(e.state)
	if !ok || !hmac.Equal([]byte(e.state), []byte(signState(r, issued, nonce))) {
		return false, errors.New("the client's answer was given for another call (tool, input or stdin differs, or another caller)")
	}
	now := time.Now()
	if now.Sub(issued) > approvalValidity || issued.After(now.Add(time.Minute)) {
		return false, fmt.Errorf("the approval question was asked more than %v ago: call again to be asked again", approvalValidity)
	}
	if answer.Action != "accept" {
		return false, nil
	}
	approve, _ := answer.Content["approve"].(bool)
	if approve && !spendState(e.state, issued, now) {
		return false, errors.New("this approval has run its call already: call again to be asked again")
	}
	return approve, nil
}

// approvalValidity is how long the answer to an approval question may take to come
// back; an approving answer runs one call ([spendState]).
const approvalValidity = 10 * time.Minute

// spent holds the request states whose approving answer has run its call, until they
// expire: an approval is not a standing permission to repeat the call.
var spent = struct {
	sync.Mutex
	m map[string]time.Time
}{m: map[string]time.Time{}}

// spendState records state as used and reports whether it was not already.
func spendState(state string, issued, now time.Time) bool {
	spent.Lock()
	defer spent.Unlock()
	for s, at := range spent.m {
		if now.Sub(at) > approvalValidity {
			delete(spent.m, s)
		}
	}
	if _, used := spent.m[state]; used {
		return false
	}
	spent.m[state] = issued
	return true
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

// approvalState binds an answer to the tool, canonical input, stdin and caller it was
// asked about, to when it was asked, and to this one question (a random nonce, so two
// questions about the same call are told apart): "<unix seconds>.<nonce>.<signature>".
func approvalState(r kernel.ApprovalRequest) string {
	nonce := make([]byte, 12)
	if _, err := rand.Read(nonce); err != nil {
		panic("mcp: no randomness for an approval state: " + err.Error())
	}
	return signState(r, time.Now(), base64.RawURLEncoding.EncodeToString(nonce))
}

func signState(r kernel.ApprovalRequest, issued time.Time, nonce string) string {
	secs := strconv.FormatInt(issued.Unix(), 10)
	m := hmac.New(sha256.New, stateKey)
	for _, part := range []string{r.Tool, r.StdinHash, r.Subject, secs, nonce} {
		m.Write([]byte(part))
		m.Write([]byte{0})
	}
	m.Write(r.Input)
	return secs + "." + nonce + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// parseState reads when a request state says its question was asked, and its nonce.
func parseState(state string) (time.Time, string, bool) {
	parts := strings.Split(state, ".")
	if len(parts) != 3 {
		return time.Time{}, "", false
	}
	n, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil {
		return time.Time{}, "", false
	}
	return time.Unix(n, 0), parts[1], true
}
