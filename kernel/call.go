package kernel

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/lane"
	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Request is one tool call.
type Request struct {
	// Tool is any spelling of the tool name.
	Tool  string
	Input json.RawMessage
	// Caller comes from the surface's authentication, never from the input.
	Caller Caller
	// Interactive says a person can answer approval questions during the call.
	Interactive bool
	// Approver answers this call's approval question instead of Config.Approver (an MCP
	// session whose client can elicit an answer from its user sets one per call).
	Approver Approver
	// Timeout asks for a deadline; 0 uses the tool's default, and it is clamped to the
	// tool's maximum.
	Timeout time.Duration
	// Lane forces adapter, subprocess or native (optional).
	Lane string
	// RunID groups calls; empty gets a fresh one (Batch shares one across its calls).
	RunID string
	// Stdin is the tool's whole standard input, for commands that read a file argument
	// "-" (nil: empty). It is bounded by Config.MaxStdin, hashed into the receipt's
	// stdin_hash, and handed to every lane: tool.Env.Stdin, the adapter's os.Stdin, the
	// subprocess's descriptor 0, and the sandbox runner's request.
	Stdin []byte
}

// Result is the outcome of one call: the Output every surface serialises and the receipt
// the evidence log holds for it.
type Result struct {
	Output  tool.Output
	Receipt evidence.Receipt
}

// Call runs one request through the pipeline.
func (k *Kernel) Call(ctx context.Context, req Request) Result {
	if req.RunID == "" {
		req.RunID = "run-" + k.newID()[len("call-"):]
	}
	return k.run(ctx, req, time.Now())
}

// call carries one call through the pipeline.
type call struct {
	machine
	k        *Kernel
	req      Request
	rec      evidence.Receipt
	admitted time.Time
	started  time.Time
	// notes are what the lanes leave for the receipt (LaneCall.Notes).
	notes LaneNotes
	// scopes are the caller's scopes resolved (step 5), handed to the lane.
	scopes lane.Scopes
	// readOnly is the effect of this call's input: a read-only call never takes the
	// workspace write lock.
	readOnly bool
	// recordable says the evidence log was healthy when the call was admitted:
	// whatever is found since, the call's receipt is written
	// (evidence.Log.AppendAdmitted).
	recordable bool
}

func (k *Kernel) run(ctx context.Context, req Request, queued time.Time) Result {
	now := time.Now()
	c := &call{k: k, req: req, admitted: now}
	c.rec = evidence.Receipt{
		ID: k.newID(), RunID: req.RunID, Time: now.UTC().Format(time.RFC3339Nano),
		Tool: req.Tool, Subject: req.Caller.Subject,
		QueuedUS: now.Sub(queued).Microseconds(),
	}
	// 1. admit: a cancelled run dispatches nothing new, and nothing runs off the record.
	if err := ctx.Err(); err != nil {
		return c.interrupt(ctx, "before dispatch")
	}
	if err := k.log.Err(); err != nil {
		return c.refuse(tool.Refuse(tool.CodeExecutionFailed, "evidence log unavailable, refusing to run unrecorded: %v", err))
	}
	c.recordable = true
	// 2. resolve.
	name, ok := k.names.Resolve(req.Tool)
	if !ok || !req.Caller.Sees(name) {
		return c.refuse(tool.Refuse(tool.CodeToolNotFound, "unknown tool %q", req.Tool))
	}
	e := k.entries[name]
	c.rec.Tool = name
	// 3. governance.
	if why := k.govern(name); why != "" {
		return c.refuse(tool.Refuse(tool.CodeToolDisabled, "%s: %s", name, why))
	}
	// 4. validate.
	input, canonical, out := tool.DecodeInput(req.Input)
	sum := sha256.Sum256(canonical)
	c.rec.InputHash = hex.EncodeToString(sum[:])
	if len(req.Stdin) > 0 {
		sum := sha256.Sum256(req.Stdin)
		c.rec.StdinHash = hex.EncodeToString(sum[:])
	}
	if out != nil {
		return c.refuse(out)
	}
	if limit := k.MaxStdin(); len(req.Stdin) > limit {
		return c.refuse(tool.RefuseDetails(tool.CodeInvalidInput, map[string]any{"stdin_bytes": len(req.Stdin), "limit": limit},
			"%s: stdin is %d bytes, over the limit of %d bytes (Config.MaxStdin)", name, len(req.Stdin), limit))
	}
	// The schema is resolved on the first call that needs it (Spec.CheckInput, cached by
	// schema), not for every tool when the kernel is built: a process that serves one
	// call resolves one schema.
	if out := e.spec.CheckInput(input); out != nil {
		return c.refuse(out)
	}
	// 5. scope, on the effect of this input (a dry run is read-only).
	obj, _ := input.(map[string]any)
	effect, _ := e.spec.EffectOf(obj)
	c.scopes = k.callerScopes(req.Caller)
	writes, denied := k.scopeCheck(&e.spec, effect, obj, c.scopes)
	if denied != nil {
		return c.refuse(denied)
	}
	// 6. policy and approval, on the same effect.
	c.rec.Effect = effect.Kind()
	c.readOnly = effect.ReadOnlyHint
	decision, rule := decide(k.policy, &e.spec, effect, canonical, req.Interactive)
	if decision == Allow && len(e.spec.RequiredApprovals) > 0 {
		decision, rule = Ask, rule+requiredApprovalsSuffix
	}
	c.rec.Decision, c.rec.Rule = string(decision), rule
	switch decision {
	case Deny:
		details, note := k.refusalHint(&e.spec, effect, canonical, req.Interactive, rule)
		return c.refuse(tool.RefuseDetails(tool.CodePolicyDenied, details, "%s: denied by policy rule %s (%s call)%s", name, rule, effect.Kind(), withNote(note)))
	case Ask:
		if !req.Interactive {
			// No person can answer: refuse now. Nothing on this branch can wait.
			details, note := k.refusalHint(&e.spec, effect, canonical, req.Interactive, rule)
			return c.refuse(tool.RefuseDetails(tool.CodeApprovalRequired, details,
				"%s needs approval (policy rule %s, %s call) and the call is not interactive%s", name, rule, effect.Kind(), withNote(note)))
		}
		if res, done := c.approve(ctx, e, canonical, rule, effect); done {
			return res
		}
	}
	// 7. the receipt is open: id, input hash and decision are fixed from here on.
	// 8. dispatch.
	return c.dispatch(ctx, e, canonical, writes)
}

// approve waits for the approver in interactive mode: the request's own, else the
// configured one. done is true when the call ended.
func (c *call) approve(ctx context.Context, e *entry, canonical []byte, rule string, effect tool.Annotations) (Result, bool) {
	k := c.k
	approver := c.req.Approver
	if approver == nil {
		approver = k.cfg.Approver
	}
	if approver == nil {
		details, note := k.refusalHint(&e.spec, effect, canonical, true, rule)
		return c.refuse(tool.RefuseDetails(tool.CodeApprovalRequired, details,
			"%s needs approval (policy rule %s, %s call) and no approver is configured%s", e.spec.Name, rule, effect.Kind(), withNote(note))), true
	}
	actx, cancel := context.WithTimeout(ctx, k.cfg.ApprovalTimeout)
	defer cancel()
	ok, err := approver.Approve(actx, ApprovalRequest{
		CallID: c.rec.ID, RunID: c.req.RunID, Tool: e.spec.Name, Subject: c.req.Caller.Subject,
		Input: canonical, Rule: rule, Effect: effect.Kind(), Approvals: e.spec.RequiredApprovals,
		StdinHash: c.rec.StdinHash,
	})
	if ctx.Err() != nil {
		return c.interrupt(ctx, "while waiting for approval"), true
	}
	if errors.Is(err, ErrApprovalDeferred) {
		// Asked out of band: this call ends unanswered, the answer comes with a retry.
		details, _ := k.refusalHint(&e.spec, effect, canonical, true, rule)
		details["asked_out_of_band"] = true
		return c.refuse(tool.RefuseDetails(tool.CodeApprovalRequired, details,
			"%s needs approval (policy rule %s, %s call); the approval was asked out of band", e.spec.Name, rule, effect.Kind())), true
	}
	if err != nil || !ok {
		c.rec.Decision = "rejected"
		why := "approval was refused"
		if err != nil {
			why = fmt.Sprintf("approval failed: %v", err)
		}
		if actx.Err() != nil {
			why = "approval timed out"
		}
		return c.refuse(tool.RefuseDetails(tool.CodeApprovalDenied, map[string]any{"rule": rule}, "%s: %s", e.spec.Name, why)), true
	}
	c.rec.Decision = "approved"
	return Result{}, false
}

// dispatch runs the call on its lane under the deadline; the first of completion,
// timeout and cancellation wins.
func (c *call) dispatch(ctx context.Context, e *entry, input json.RawMessage, writes []string) Result {
	k := c.k
	name, out := c.lane(e)
	if out != nil {
		return c.refuse(out)
	}
	c.rec.Lane = name
	timeout := e.spec.DefaultTimeout
	if c.req.Timeout > 0 {
		timeout = min(c.req.Timeout, e.spec.MaxTimeout)
	}
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	release, err := k.paths.acquire(dctx, sortedUnique(writes))
	if err != nil {
		return c.interrupt(ctx, "while waiting for a path another call is writing")
	}
	defer release()
	if serialised(e, c.readOnly) {
		// One writer at a time per workspace, whichever surface, batch or process the
		// call comes from: the corpus's commit steps share one git index.
		unlock, err := k.writes.acquire(dctx)
		if err != nil {
			if dctx.Err() != nil {
				return c.interrupt(ctx, "while waiting for the workspace write lock")
			}
			c.fire(EvComplete)
			return c.finish(tool.Fail(tool.CodeExecutionFailed, "%s: %v", e.spec.Name, err), evidence.StatusFailed)
		}
		defer unlock()
	}
	if !c.fire(EvDispatch) {
		return c.interrupt(ctx, "before dispatch")
	}
	c.started = time.Now()
	l := k.lanes[name]
	if l == nil {
		c.fire(EvComplete)
		return c.finish(tool.Fail(tool.CodeExecutionFailed, "%s: this kernel has no %s lane", e.spec.Name, name), evidence.StatusFailed)
	}
	if e.route == RouteShadow && c.req.Lane == "" {
		// New saw to it that a shadow route has its shadow runs and a native lane.
		l = k.shadows.Lane(l, k.lanes[LaneNative])
	}
	// Binding runs in this goroutine (the native lane decodes the input here), which
	// keeps the dispatch goroutine small.
	run, err := lane.Bind(l, c.laneCall(e, input))
	if err != nil {
		// The lane rejected the input the schema accepted: a lane/schema disagreement.
		c.fire(EvComplete)
		return c.finish(tool.Fail(tool.CodeInvalidInput, "%s: %v", e.spec.Name, err), evidence.StatusFailed)
	}
	done := make(chan tool.Output, 1)
	// Whatever the lane spawns for workspace code runs in the kernel's jail.
	jctx := proctree.WithJail(dctx, k.jail)
	go func() { done <- safely(e.spec.Name, name, func() tool.Output { return run(jctx) }) }()
	select {
	case out := <-done:
		// A lane that returns as soon as its context ends races the deadline: when the
		// context had already ended, the call was interrupted, whatever the lane said.
		if dctx.Err() == nil && c.fire(EvComplete) {
			return c.finish(speakUsage(e.spec.InputSchema, out), statusOf(out))
		}
	case <-dctx.Done():
	}
	// The message states what happened: a timeout names the deadline it hit, a
	// cancellation the time the call had run when it was cancelled.
	when := fmt.Sprintf("after %s", timeout)
	if ctx.Err() != nil {
		when = fmt.Sprintf("after %s", time.Since(c.started).Round(time.Millisecond))
	}
	return c.interrupt(ctx, when)
}

// lane picks the lane for this call, honouring an explicit request. A tool that must
// run sandboxed runs on the sandbox lane whatever the route, and asking for any other
// lane is refused: a forced lane never escapes the sandbox.
func (c *call) lane(e *entry) (string, *tool.Error) {
	lane := c.req.Lane
	if c.k.requiresSandbox(e.spec.Name) {
		if lane != "" && lane != LaneSandbox {
			return "", tool.Refuse(tool.CodeInvalidInput, "%s must run in the sandbox; lane %q is not allowed", e.spec.Name, lane)
		}
		return LaneSandbox, nil
	}
	if lane == "" {
		switch e.route {
		case RouteNative:
			return LaneNative, nil
		default: // adapter and shadow serve the adapter lane
			return LaneAdapter, nil
		}
	}
	switch {
	case lane == LaneSandbox,
		lane == LaneNative && e.native != nil, (lane == LaneAdapter || lane == LaneSubprocess) && e.command != nil:
		return lane, nil
	}
	return "", tool.Refuse(tool.CodeInvalidInput, "%s cannot run on lane %q", e.spec.Name, lane)
}

// laneCall is what this call's lane gets: the resolved tool, the validated input, and
// the request's stdin, caller and mode, in the workspace.
func (c *call) laneCall(e *entry, input json.RawMessage) LaneCall {
	return LaneCall{
		Spec: &e.spec, Route: e.route,
		Input: input, Dir: c.k.workspace, Stdin: c.req.Stdin,
		Caller: c.req.Caller, Scopes: c.scopes, Hidden: c.k.hidden,
		Interactive: c.req.Interactive, ReceiptID: c.rec.ID,
		Notes: &c.notes,
	}
}

// safely runs a lane call, turning a panic into EXECUTION_FAILED.
func safely(name, lane string, run func() tool.Output) (out tool.Output) {
	defer func() {
		if r := recover(); r != nil {
			out = tool.Fail(tool.CodeExecutionFailed, "%s: lane %s panicked: %v", name, lane, r)
		}
	}()
	return run()
}

// interrupt ends the call as cancelled or timed out, whichever ctx says.
func (c *call) interrupt(ctx context.Context, when string) Result {
	if ctx.Err() != nil && c.fire(EvCancel) {
		return c.finish(tool.Fail(tool.CodeCancelled, "%s: cancelled %s", c.rec.Tool, when), evidence.StatusCancelled)
	}
	if c.fire(EvTimeout) {
		return c.finish(tool.Fail(tool.CodeTimeout, "%s: timed out %s", c.rec.Tool, when), evidence.StatusTimeout)
	}
	// Unreachable by the state machine; kept so every path returns one result.
	return c.finish(tool.Fail(tool.CodeExecutionFailed, "%s: no terminal transition", c.rec.Tool), evidence.StatusFailed)
}

// refuse ends the call refused: governance, validation or scope said no before any
// lane ran.
func (c *call) refuse(refused *tool.Error) Result {
	c.fire(EvRefuse)
	return c.finish(refused.Output(), evidence.StatusRefused)
}

// finish is step 9: hash the output, append the receipt, publish.
func (c *call) finish(out tool.Output, status string) Result {
	end := time.Now()
	c.rec.Status = status
	c.rec.Shadow = c.notes.Shadow()
	if l, _ := out.Metadata["lane"].(string); c.rec.Lane == LaneAdapter && l == LaneSubprocess {
		// The adapter moved a subprocess-tier command (bridgecheck) to the subprocess lane:
		// the receipt names the lane that really ran it.
		c.rec.Lane = l
	}
	c.rec.Sandbox = c.notes.Sandbox()
	c.rec.Notes = c.notes.Values()
	if out.Error != nil {
		c.rec.ErrorCode = out.Error.Code
	}
	if code, ok := exitCode(out.Metadata); ok {
		c.rec.ExitCode = &code
	}
	if !c.started.IsZero() {
		c.rec.DurationUS = end.Sub(c.started).Microseconds()
	}
	hashed := out
	hashed.Metadata = nil
	if b, err := json.Marshal(hashed); err == nil {
		sum := sha256.Sum256(b)
		c.rec.OutputHash = hex.EncodeToString(sum[:])
	}
	meta := map[string]any{"call_id": c.rec.ID, "run_id": c.rec.RunID}
	if c.rec.Lane != "" {
		meta["lane"] = c.rec.Lane
	}
	for key, v := range out.Metadata {
		meta[key] = v
	}
	if _, ok := meta["duration_ms"]; !ok {
		meta["duration_ms"] = float64(end.Sub(c.admitted).Microseconds()) / 1000
	}
	out.Metadata = meta
	appendReceipt := c.k.log.Append
	if c.recordable {
		appendReceipt = c.k.log.AppendAdmitted
	}
	if err := appendReceipt(&c.rec); err != nil {
		// The call's outcome stands, but the caller must know it is not on record.
		out.Metadata["evidence_error"] = err.Error()
	}
	res := Result{Output: out, Receipt: c.rec}
	if c.k.cfg.OnResult != nil {
		c.k.cfg.OnResult(c.req, res)
	}
	return res
}

func statusOf(out tool.Output) string {
	if out.Success {
		return evidence.StatusOK
	}
	return evidence.StatusFailed
}

func exitCode(meta map[string]any) (int, bool) {
	switch v := meta["exit_code"].(type) {
	case int:
		return v, true
	case float64:
		return int(v), true
	}
	return 0, false
}

// withNote appends a refusal's hint to its message.
func withNote(note string) string {
	if note == "" {
		return ""
	}
	return "; " + note
}

// MaxStdin is the longest Request.Stdin this kernel accepts, in bytes.
func (k *Kernel) MaxStdin() int {
	if k.cfg.MaxStdin > 0 {
		return k.cfg.MaxStdin
	}
	return DefaultMaxStdin
}

// acquire takes the locks of paths in order, giving up when ctx ends.
func (p *pathLocks) acquire(ctx context.Context, paths []string) (func(), error) {
	got := make([]chan struct{}, 0, len(paths))
	release := func() {
		for _, ch := range got {
			<-ch
		}
	}
	for _, path := range paths {
		p.mu.Lock()
		ch := p.held[path]
		if ch == nil {
			ch = make(chan struct{}, 1)
			p.held[path] = ch
		}
		p.mu.Unlock()
		select {
		case ch <- struct{}{}:
			got = append(got, ch)
		case <-ctx.Done():
			release()
			return nil, errors.New("path lock: " + ctx.Err().Error())
		}
	}
	return release, nil
}
