package http

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	nethttp "net/http"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/events"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TurnIDHeader carries the id of a POST /turns turn; DELETE /turns/{id} cancels it.
const TurnIDHeader = "Cmdbridge-Turn-Id"

// MaxTurnCalls bounds the calls of one turn: a turn is an agent's step, not a bulk job.
const MaxTurnCalls = 64

// Outcomes of a turn.
const (
	TurnCompleted = "completed"
	TurnAborted   = "aborted"
)

// Reasons an aborted turn gives (payload.reason of agent-runtime:turn_aborted).
const (
	AbortDeleted      = "deleted"             // DELETE /turns/{id}
	AbortDisconnected = "client_disconnected" // the POST /turns client went away
	AbortClosing      = "server_closing"      // Server.Close
	AbortTimeout      = "timeout"             // a call hit its deadline
)

// TurnCall is one call of a POST /turns body.
type TurnCall struct {
	// Tool is any spelling the kernel resolves, as for POST /tools/{name}.
	Tool string `json:"tool"`
	// Input is the tool's input, one JSON object; absent means {}.
	Input json.RawMessage `json:"input,omitempty"`
	// TimeoutMS asks for a deadline (0: the tool's default; clamped to its maximum).
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
	// Stdin is the tool's standard input (absent: empty), as with POST /tools?stdin=1.
	Stdin string `json:"stdin,omitempty"`
}

// TurnRequest is the body of POST /turns.
type TurnRequest struct {
	// TurnID names the turn for DELETE /turns/{id} and the turn events; empty gets the
	// turn's run id. It must be unique among the subject's turns in flight.
	TurnID string     `json:"turn_id,omitempty"`
	Calls  []TurnCall `json:"calls"`
}

// TurnResponse is the 200 body of POST /turns.
type TurnResponse struct {
	TurnID string `json:"turn_id"`
	// RunID is the kernel run every call of the turn ran under (the run_id of its
	// receipts and of every event of the turn).
	RunID string `json:"run_id"`
	// Outcome is TurnCompleted or TurnAborted.
	Outcome string `json:"outcome"`
	// Reason, CleanupStatus and RecoveryAction are set for an aborted turn, as in its
	// agent-runtime:turn_aborted event.
	Reason         string               `json:"reason,omitempty"`
	CleanupStatus  events.CleanupStatus `json:"cleanup_status,omitempty"`
	RecoveryAction string               `json:"recovery_action,omitempty"`
	// Results are the calls' Outputs in request order.
	Results []tool.Output `json:"results"`
}

// Causes of a turn's cancellation, so the abort can say why.
var (
	errTurnDeleted   = errors.New("turn cancelled by DELETE /turns")
	errServerClosing = errors.New("server closing")
	errCallTimeout   = errors.New("a call of the turn timed out")
)

// validTurnID reports whether id is 1 to 128 of A-Z a-z 0-9 . _ : - (a loop, not the
// equivalent regexp, whose 128-fold repetition cost every program linking this package
// 1,700 allocations at init).
func validTurnID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for _, c := range []byte(id) {
		ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("._:-", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// parseTurn decodes and checks a POST /turns body; a body it refuses is INVALID_INPUT
// (400).
func parseTurn(body []byte) (req TurnRequest, refused *tool.Error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields() // a misspelt "call" must not silently run nothing
	if err := dec.Decode(&req); err != nil {
		return req, invalid("request body is not a turn: %v", err)
	}
	if dec.More() {
		return req, invalid("request body must be one JSON object")
	}
	if req.TurnID != "" && !validTurnID(req.TurnID) {
		return req, invalid("turn_id must be 1 to 128 letters, digits, '.', '_', ':' or '-'")
	}
	if len(req.Calls) == 0 {
		return req, invalid(`"calls" must list at least one call`)
	}
	if len(req.Calls) > MaxTurnCalls {
		return req, invalid(`"calls" lists %d calls; a turn has at most %d`, len(req.Calls), MaxTurnCalls)
	}
	for i, c := range req.Calls {
		if c.Tool == "" {
			return req, invalid("calls[%d]: tool is required", i)
		}
		if c.TimeoutMS < 0 {
			return req, invalid("calls[%d]: timeout_ms must not be negative", i)
		}
		input, bad := objectBody(c.Input)
		if bad != nil {
			return req, invalid("calls[%d]: input: %s", i, strings.TrimPrefix(bad.Message, "request body "))
		}
		req.Calls[i].Input = input
	}
	return req, nil
}

// newRunID makes a turn's run id, unique across servers like call ids.
func (s *Server) newRunID() string {
	return "run-" + strings.TrimPrefix(s.idBase, "http-") + "t" + fmt.Sprint(s.idSeq.Add(1))
}

// runTurn is POST /turns: the calls run as one kernel batch under one run id, with
// turn_started before and turn_completed or turn_aborted after.
func (s *Server) runTurn(w nethttp.ResponseWriter, r *nethttp.Request, c token.Claims) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	req, refused := parseTurn(body)
	if refused != nil {
		writeRefusal(w, nethttp.StatusBadRequest, refused)
		return
	}
	runID := s.newRunID()
	turnID := req.TurnID
	if turnID == "" {
		turnID = runID
	}

	ctx, cancel := context.WithCancelCause(r.Context()) // a client disconnect cancels
	defer cancel(nil)
	unhook := context.AfterFunc(s.base, func() { cancel(errServerClosing) })
	defer unhook()
	key := c.Subject + "\x00" + turnID
	entry := &running{subject: c.Subject, cancel: func() { cancel(errTurnDeleted) }}
	if _, busy := s.turns.LoadOrStore(key, entry); busy {
		writeFailure(w, nethttp.StatusConflict, tool.CodeAlreadyExists, fmt.Sprintf("turn %s is already running", turnID))
		return
	}
	// The turn leaves the table when its calls are done, before its last event, so a
	// client that saw turn_completed may reuse the id. CompareAndDelete: never remove a
	// newer turn of the same id.
	release := func() { s.turns.CompareAndDelete(key, entry) }
	defer release()

	// As for POST /tools: the status is 200 from here on, and the client learns the turn
	// id while the turn runs.
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set(TurnIDHeader, turnID)
	w.WriteHeader(nethttp.StatusOK)
	if f, ok := w.(nethttp.Flusher); ok {
		f.Flush()
	}

	resp := s.turn(ctx, cancel, release, c, turnID, runID, req.Calls)
	out, err := json.Marshal(resp)
	if err != nil {
		// Data a native tool returned that JSON cannot hold: the turn's answer says so
		// rather than vanishing.
		out = failureBody(tool.CodeInternal, fmt.Sprintf("turn %s: results are not JSON: %v", turnID, err))
	} else {
		out = append(out, '\n')
	}
	_, _ = w.Write(out)
}

// turn runs the calls and publishes the turn's events; the response is its summary.
func (s *Server) turn(ctx context.Context, cancel context.CancelCauseFunc, release func(), c token.Claims, turnID, runID string, calls []TurnCall) TurnResponse {
	resp := TurnResponse{TurnID: turnID, RunID: runID, Results: make([]tool.Output, len(calls))}
	reqs := make([]kernel.Request, 0, len(calls))
	index := make([]int, 0, len(calls)) // reqs[j] is calls[index[j]]
	for i, call := range calls {
		name, ok := s.visible(call.Tool, c)
		if !ok {
			// Exactly what POST /tools reveals: unknown and hidden alike, no receipt.
			resp.Results[i] = tool.Fail(tool.CodeToolNotFound, "%s", hiddenMessage)
			continue
		}
		reqs = append(reqs, kernel.Request{
			Tool: name, Input: call.Input, Caller: Caller(c), Interactive: false,
			Timeout: msDuration(call.TimeoutMS), RunID: runID, Stdin: []byte(call.Stdin),
		})
		index = append(index, i)
	}

	s.publish(events.TurnStarted(runID, turnID, map[string]any{"calls": len(calls)}), c.Subject)
	finished := make([]kernel.Result, len(reqs))
	s.k.BatchFunc(ctx, reqs, func(j int, res kernel.Result) {
		finished[j] = res
		resp.Results[index[j]] = res.Output
		if interrupted(res) && ctx.Err() == nil {
			// Cut off by its own deadline: the turn is over, and what has not started
			// yet must not run.
			cancel(errCallTimeout)
		}
	})
	release()

	sum := summarize(finished, s.readOnly)
	if !sum.aborted {
		resp.Outcome = TurnCompleted
		s.publish(events.TurnCompleted(runID, turnID, map[string]any{
			"calls": len(calls), "succeeded": sum.succeeded, "failed": len(calls) - sum.succeeded,
		}), c.Subject)
		return resp
	}
	resp.Outcome = TurnAborted
	resp.Reason = abortReason(ctx)
	resp.CleanupStatus = sum.cleanup()
	if resp.CleanupStatus != events.CleanupClean {
		resp.RecoveryAction = "git -C " + shellQuote(s.k.Workspace()) + " status --short"
	}
	s.publish(events.TurnAborted(runID, turnID, resp.CleanupStatus, resp.RecoveryAction, map[string]any{
		"reason": resp.Reason, "calls": len(calls),
		"interrupted": sum.interrupted, "finished_writers": sum.finishedWriters,
	}), c.Subject)
	return resp
}

// hiddenMessage is the message of the one TOOL_NOT_FOUND answer for unknown and
// hidden tools.
const hiddenMessage = "unknown tool"

func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// turnSummary is what a turn's receipts say about how it ended.
type turnSummary struct {
	aborted   bool
	succeeded int
	// interrupted are write-capable calls cancelled or timed out after dispatch;
	// finishedWriters are write-capable calls that ran to an end. Each entry is
	// {tool, call_id, status}.
	interrupted, finishedWriters []map[string]any
}

// interrupted reports whether a call was cut off by cancellation or its deadline. The
// receipt says so when the kernel noticed first; when the tool noticed first and
// returned, the receipt says failed and the tool's CANCELLED or TIMEOUT code tells.
func interrupted(res kernel.Result) bool {
	switch res.Receipt.Status {
	case evidence.StatusCancelled, evidence.StatusTimeout:
		return true
	case evidence.StatusRefused:
		return false
	}
	code := codeOf(res.Output)
	return code == tool.CodeCancelled || code == tool.CodeTimeout
}

func codeOf(o tool.Output) string {
	if o.Error == nil {
		return ""
	}
	return o.Error.Code
}

// summarize reads the results. A turn is aborted when any call was interrupted: that
// only comes from the turn's context or a call's deadline, so a DELETE that arrives
// after every call finished does not abort a completed turn.
func summarize(results []kernel.Result, readOnly map[string]bool) turnSummary {
	var sum turnSummary
	for _, res := range results {
		rec := res.Receipt
		if res.Output.Success {
			sum.succeeded++
		}
		cut := interrupted(res)
		sum.aborted = sum.aborted || cut
		if readOnly[rec.Tool] || !dispatched(res) {
			continue
		}
		entry := map[string]any{"tool": rec.Tool, "call_id": rec.ID, "status": rec.Status}
		if cut {
			sum.interrupted = append(sum.interrupted, entry)
		} else {
			sum.finishedWriters = append(sum.finishedWriters, entry)
		}
	}
	return sum
}

// dispatched reports whether a call may have reached its lane. The receipt names a
// lane once the kernel chose one; the one interruption after that which is known not to
// have run anything is a wait for another call's path lock. Anything else with a lane is
// counted as having run: when unsure, the operator is told to look.
func dispatched(res kernel.Result) bool {
	if res.Receipt.Lane == "" || res.Receipt.Status == evidence.StatusRefused {
		return false
	}
	if res.Receipt.DurationUS == 0 && res.Output.Error != nil &&
		strings.Contains(res.Output.Error.Message, "while waiting for a path") {
		return false
	}
	return true
}

// cleanup is the turn_aborted cleanup status: needs_recovery when a writer was cut off
// mid-run, partial when writers finished before the abort, clean otherwise.
func (sum turnSummary) cleanup() events.CleanupStatus {
	switch {
	case len(sum.interrupted) > 0:
		return events.CleanupNeedsRecovery
	case len(sum.finishedWriters) > 0:
		return events.CleanupPartial
	default:
		return events.CleanupClean
	}
}

// abortReason says why the turn's context ended; a turn aborted while its context
// lived was cut off by a call's deadline.
func abortReason(ctx context.Context) string {
	switch cause := context.Cause(ctx); {
	case cause == nil || errors.Is(cause, errCallTimeout):
		return AbortTimeout
	case errors.Is(cause, errTurnDeleted):
		return AbortDeleted
	case errors.Is(cause, errServerClosing):
		return AbortClosing
	default:
		return AbortDisconnected
	}
}

// shellQuote quotes s for a POSIX shell when it needs it, so a recovery action can be
// pasted as is.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (s *Server) cancelTurn(w nethttp.ResponseWriter, r *nethttp.Request, c token.Claims) {
	id := r.PathValue("id")
	v, ok := s.turns.Load(c.Subject + "\x00" + id)
	if !ok {
		// Turns are keyed by subject: another subject's turn is as absent as a finished one.
		writeFailure(w, nethttp.StatusNotFound, tool.CodeNotFound, "no such turn in flight")
		return
	}
	v.(*running).cancel()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(nethttp.StatusAccepted)
	_ = json.NewEncoder(w).Encode(map[string]any{"turn_id": id, "cancelling": true})
}

// publish sends e from subject when the server has a publisher. Turn events are
// telemetry: a failure is reported to Config.OnEventError and never changes a call.
func (s *Server) publish(e events.Event, subject string) (events.Event, error) {
	if s.pub == nil {
		return e, nil
	}
	e.From = subject
	out, err := s.pub.Publish(context.Background(), e)
	if err != nil && s.cfg.OnEventError != nil {
		s.cfg.OnEventError(fmt.Errorf("publish %s: %w", e.Kind, err))
	}
	return out, err
}
