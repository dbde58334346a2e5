package broker

import (
	"encoding/json"
	"errors"
	"fmt"
	nethttp "net/http"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/tool"
)

// maxWaits bounds how often one redelivery waits for the same key's call in flight;
// each wait ends when that call does, so two suffice (the second sees it done).
const maxWaits = 3

// onCall takes a request on cmdbridge.<ws>.tools.<name>. The subscription's callback
// only waits for a free slot; the call runs on its own goroutine, so one slow tool does
// not hold up the others.
func (s *Sidecar) onCall(m *nats.Msg) {
	select {
	case s.sem <- struct{}{}:
	case <-s.ctx.Done():
		return
	}
	// Counted under the lock Close takes first, so Close's wait sees every call it
	// has to wait for, and no call starts after it.
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		<-s.sem
		return
	}
	s.calls.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.calls.Done()
		defer func() { <-s.sem }()
		s.handleCall(m)
	}()
}

// bearer extracts the token of an "Authorization: Bearer <token>" header value.
func bearer(h string) string {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// caller is who a call runs as: the bearer token's subject and scopes, or — without an
// Authorization header — the control-plane caller, whose authority is that only the
// control plane's NATS user may publish on this workspace's tool subjects.
func (s *Sidecar) caller(auth string) (token.Claims, error) {
	if strings.TrimSpace(auth) == "" && s.cfg.Control != nil {
		return s.cfg.Control.Claims(), nil
	}
	return s.cfg.Server.Authenticate(bearer(auth))
}

// handleCall is POST /tools/{name} over request/reply: the same checks in the same
// order (token first, then visibility, then the body), the same kernel path, the same
// reply body, the HTTP status in a header. A keyed write call runs at most once per
// caller and key (the idempotency log); a read-only call needs no log, since running
// it again changes nothing.
func (s *Sidecar) handleCall(m *nats.Msg) {
	if m.Reply == "" {
		s.report(fmt.Errorf("broker: call on %s without a reply subject: not run", m.Subject))
		return
	}
	if strings.HasPrefix(m.Reply, "$JS.") {
		// A JetStream delivery, not a request: a pull request names any subject as its
		// reply and the server delivers there, past the requester's permissions. No
		// caller of ours asks for a reply on a JetStream subject.
		s.report(fmt.Errorf("broker: call on %s with the JetStream reply subject %s refused: not run, not answered", m.Subject, m.Reply))
		return
	}
	ws, area, name, err := parseSubject(m.Subject)
	if err != nil || area != "tools" || ws != s.ws || (m.Header.Get(WorkspaceHeader) != "" && m.Header.Get(WorkspaceHeader) != s.ws) {
		// The sidecar answers for its own workspace only; a message that names another is
		// refused before its token is even looked at.
		s.reply(m, nethttp.StatusForbidden, failure(tool.CodeScopeDenied, "this sidecar serves workspace "+strconv.Quote(s.ws)), false)
		return
	}
	srv := s.cfg.Server
	claims, err := s.caller(m.Header.Get(AuthHeader))
	if err != nil {
		s.reply(m, nethttp.StatusUnauthorized, failure("UNAUTHORIZED", "the bearer token is missing, invalid or expired"), false)
		return
	}
	cc, status, body := srv.CheckCall(claims, name, m.Data, m.Header.Get(StdinHeader) == "1")
	if status != nethttp.StatusOK {
		s.reply(m, status, body, false)
		return
	}
	key := m.Header.Get(nats.MsgIdHdr)
	if key == "" || cc.ReadOnly {
		s.reply(m, nethttp.StatusOK, srv.RunCall(s.ctx, cc, nil), false)
		return
	}
	// The key is the caller's: another subject reusing it neither sees this result nor
	// blocks this call.
	full := claims.Subject + "\x00" + key
	sum := callHash(claims.Subject, cc.Name, cc.Input, cc.Stdin)
	for range maxWaits {
		v, e, err := s.log.begin(full, sum, s.cfg.Now())
		if err != nil {
			s.report(err)
			s.reply(m, nethttp.StatusOK, failure(tool.CodeInternal, "the call could not be recorded, so it was not run: "+err.Error()), false)
			return
		}
		switch v {
		case runIt:
			out := srv.RunCall(s.ctx, cc, nil)
			s.report(s.log.finish(full, e, receiptID(out), out))
			s.reply(m, nethttp.StatusOK, out, false)
			return
		case replay:
			s.stats.replayed.Add(1)
			s.reply(m, nethttp.StatusOK, e.out, true)
			return
		case conflict:
			s.reply(m, nethttp.StatusConflict, failure(tool.CodeAlreadyExists,
				fmt.Sprintf("idempotency key %q was already used for another call", key)), false)
			return
		case inDoubt:
			s.reply(m, nethttp.StatusOK, failureDetails(tool.CodeExecutionFailed,
				map[string]any{"idempotency_key": key, "in_doubt": true},
				"the call with this idempotency key began before the sidecar stopped and its outcome is unknown; it is not run again (check the workspace and the evidence log)"), false)
			return
		case waitRun:
			select {
			case <-e.done:
			case <-s.ctx.Done():
				s.reply(m, nethttp.StatusOK, failure(tool.CodeCancelled, "the sidecar is closing"), false)
				return
			}
		}
	}
	s.reply(m, nethttp.StatusOK, failure(tool.CodeInternal, "the call with this idempotency key did not settle"), false)
}

// receiptID is the kernel's call id (the receipt id) in a reply's metadata.
func receiptID(out []byte) string {
	var o struct {
		Metadata struct {
			CallID string `json:"call_id"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(out, &o)
	return o.Metadata.CallID
}

func (s *Sidecar) reply(m *nats.Msg, status int, body []byte, replayed bool) {
	r := nats.NewMsg(m.Reply)
	r.Header.Set(StatusHeader, strconv.Itoa(status))
	if replayed {
		r.Header.Set(ReplayedHeader, "true")
	}
	r.Data = body
	s.stats.calls.Add(1)
	if err := m.RespondMsg(r); err != nil {
		s.report(fmt.Errorf("broker: reply on %s: %w", m.Subject, err))
	}
}

func failure(code, message string) []byte {
	b, _ := json.Marshal(tool.Fail(code, "%s", message))
	return append(b, '\n')
}

func failureDetails(code string, details any, message string) []byte {
	b, _ := json.Marshal(tool.FailDetails(code, details, "%s", message))
	return append(b, '\n')
}

// consumeCommands binds the workspace's durable consumer on the command stream and
// turns each command into a durable conductor:command in the outbox, acknowledging the
// broker only once the outbox has it. The control plane creates the consumer (with its
// first command, or when it provisions); until it exists, or the broker answers, this
// looks again with backoff, up to Config.CommandPoll apart. A consumer that is not
// pinned to this workspace's command subject as a pull consumer is not used.
func (s *Sidecar) consumeCommands() {
	defer s.wg.Done()
	// A command on our subject means the consumer now exists (SendCommand makes it
	// first): look at once rather than at the next poll. Only a nudge: the message
	// itself is never used, commands are read through the consumer alone.
	nudge := make(chan struct{}, 1)
	if sub, err := s.cfg.Conn.Subscribe(CommandSubject(s.ws), func(*nats.Msg) {
		select {
		case nudge <- struct{}{}:
		default:
		}
	}); err == nil {
		defer func() { _ = sub.Unsubscribe() }()
		// The server has the subscription before the first look: a consumer made after
		// that look is made before its first command, whose nudge then reaches us.
		_ = s.cfg.Conn.FlushTimeout(s.cfg.PublishTimeout)
	}
	wait := 100 * time.Millisecond
	for {
		cons, err := s.js.Consumer(s.ctx, CommandStream, CommandConsumer(s.ws))
		if err == nil && !pinned(cons.CachedInfo().Config, s.ws) {
			err = fmt.Errorf("consumer %s is not a pull consumer on %s alone: not used", CommandConsumer(s.ws), CommandSubject(s.ws))
		}
		if err == nil {
			var cc jetstream.ConsumeContext
			cc, err = cons.Consume(s.onCommand, jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
				if s.ctx.Err() == nil && !isMissingStream(err) {
					s.report(fmt.Errorf("broker: commands: %w", err))
				}
			}))
			if err == nil {
				<-s.ctx.Done()
				cc.Stop()
				<-cc.Closed()
				return
			}
		}
		if s.ctx.Err() != nil {
			return
		}
		limit := s.cfg.MaxBackoff
		switch {
		case errors.Is(err, jetstream.ErrConsumerNotFound) || isMissingStream(err):
			// Not provisioned yet: the normal state of a workspace that never got a
			// command. Look again rarely.
			limit = s.cfg.CommandPoll
		default:
			s.report(fmt.Errorf("broker: command consumer: %w", err))
		}
		t := time.NewTimer(wait)
		select {
		case <-s.ctx.Done():
			t.Stop()
			return
		case <-nudge:
			t.Stop()
		case <-t.C:
		}
		if wait *= 2; wait > limit {
			wait = limit
		}
	}
}

// onCommand is POST /commands for one broker message, as the control-plane caller; its
// stream sequence fixes the event's seq and call_id, so a redelivery makes the same
// event_id.
func (s *Sidecar) onCommand(msg jetstream.Msg) {
	ws, area, _, err := parseSubject(msg.Subject())
	if err != nil || area != "commands" || ws != s.ws {
		s.report(fmt.Errorf("broker: command on %s refused: not this workspace's", msg.Subject()))
		_ = msg.Term()
		return
	}
	// A command's authority is its subject: only the control plane may publish on
	// cmdbridge.<ws>.commands, and this consumer reads that subject only. It runs as the
	// control-plane caller; a token in its headers (an older control plane) is ignored.
	if s.cfg.Control == nil {
		s.report(fmt.Errorf("broker: command on %s refused: no control-plane caller is configured (cmdbridge enroll --control-tools …)", msg.Subject()))
		_ = msg.Term()
		return
	}
	if k := s.cfg.CommandKey; k != "" {
		if err := VerifyCommand(k, s.ws, msg.Headers().Get(nats.MsgIdHdr), msg.Data(), msg.Headers().Get(SignatureHeader)); err != nil {
			s.report(fmt.Errorf("broker: command on %s refused: %w", msg.Subject(), err))
			_ = msg.Term()
			return
		}
	}
	claims := s.cfg.Control.Claims()
	meta, err := msg.Metadata()
	if err != nil {
		s.report(fmt.Errorf("broker: command metadata: %w", err))
		_ = msg.Nak()
		return
	}
	ref := fmt.Sprintf("nats:%s:%d", CommandStream, meta.Sequence.Stream)
	_, status, body := s.cfg.Server.AcceptCommand(claims, msg.Data(), meta.Sequence.Stream, ref)
	switch {
	case status == nethttp.StatusAccepted:
		s.stats.commands.Add(1)
		_ = msg.Ack()
	case status >= 500:
		// The outbox could not take it now (closing): the broker redelivers later.
		_ = msg.NakWithDelay(time.Second)
	default:
		s.report(fmt.Errorf("broker: command on %s refused (%d): %s", msg.Subject(), status, strings.TrimSpace(string(body))))
		_ = msg.Term()
	}
}
