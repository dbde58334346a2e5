package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	nethttp "net/http"
	"unicode"

	"github.com/cmdbridge/cmdbridge/surface/events"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/tool"
)

// CommandRequest is the body of POST /commands.
type CommandRequest struct {
	// Channel orders the command among others (FIFO per channel); empty means the
	// token's subject.
	Channel string `json:"channel,omitempty"`
	// Command names what the conductor is asked to do; the server does not interpret it.
	Command string `json:"command"`
	// Args are the command's arguments, one JSON object when present.
	Args json.RawMessage `json:"args,omitempty"`
}

// CommandAccepted is the 202 body of POST /commands.
type CommandAccepted struct {
	// EventID is the conductor:command event's id: what /events/ack takes.
	EventID string `json:"event_id"`
	Channel string `json:"channel"`
	// Seq is the event's sequence number (its SSE id when the hub assigned it).
	Seq uint64 `json:"seq"`
}

// DefaultMaxPendingCommands and DefaultMaxPendingCommandBytes bound the unacknowledged
// commands one subject may have queued, on all channels together, when
// Config.MaxPendingCommands and Config.MaxPendingCommandBytes are zero: past either,
// POST /commands is 429 until some are acknowledged. Commands are durable, kept on disk
// and in memory and replayed to every fresh stream, so without a bound any token could
// fill the outbox. Each subject has its own allowance: one that floods cannot stop
// another's commands.
const (
	DefaultMaxPendingCommands     = 1024
	DefaultMaxPendingCommandBytes = 16 << 20
)

// backlogger is what a publisher that can bound commands tells (surface/events' Hub).
type backlogger interface {
	Backlog(from, kind string) (events, bytes int)
}

// maxLabel bounds a command name and a channel.
const maxLabel = 256

// checkLabel refuses empty, overlong or control-character names.
func checkLabel(field, v string) *tool.Error {
	if v == "" {
		return invalid("%s is required", field)
	}
	if len(v) > maxLabel {
		return invalid("%s is longer than %d bytes", field, maxLabel)
	}
	for _, r := range v {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return invalid("%s must be printable UTF-8", field)
		}
	}
	return nil
}

// parseCommand decodes and checks a POST /commands body; a body it refuses is
// INVALID_INPUT (400).
func parseCommand(body []byte, subject string) (req CommandRequest, args map[string]any, refused *tool.Error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber() // args reach the payload with their numbers' literal form
	if err := dec.Decode(&req); err != nil {
		return req, nil, invalid("request body is not a command: %v", err)
	}
	if dec.More() {
		return req, nil, invalid("request body must be one JSON object")
	}
	if refused := checkLabel("command", req.Command); refused != nil {
		return req, nil, refused
	}
	if req.Channel == "" {
		req.Channel = subject
	}
	if refused := checkLabel("channel", req.Channel); refused != nil {
		return req, nil, refused
	}
	if len(req.Args) > 0 {
		ad := json.NewDecoder(bytes.NewReader(req.Args))
		ad.UseNumber()
		if err := ad.Decode(&args); err != nil || args == nil {
			return req, nil, invalid("args must be a JSON object")
		}
	}
	return req, args, nil
}

// postCommand is POST /commands: a durable conductor:command from the token's subject.
// The 202 comes after the outbox has the event, so an accepted command survives a
// crash; it is delivered to every fresh stream until acknowledged.
func (s *Server) postCommand(w nethttp.ResponseWriter, r *nethttp.Request, c token.Claims) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	acc, status, failure := s.AcceptCommand(c, body, 0, "")
	if failure != nil {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		_, _ = w.Write(failure)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(nethttp.StatusAccepted)
	_ = json.NewEncoder(w).Encode(acc)
}

// AcceptCommand is POST /commands for another transport (surface/broker): body is what
// POST /commands takes, the event's from is c's subject, and the channel must be one c
// may watch. seq, when not zero, is the event's seq and ref its call_id — a broker's
// stream sequence and a name for where it came from — so a redelivered message makes
// the same event_id (the outbox keeps one copy while it is pending, consumers dedupe
// the rest) and never the id of a command that came another way. On refusal it returns the status POST /commands would answer and the
// tool.Output body; on success 202 and no body.
func (s *Server) AcceptCommand(c token.Claims, body []byte, seq uint64, ref string) (CommandAccepted, int, []byte) {
	if s.pub == nil {
		return CommandAccepted{}, nethttp.StatusNotFound, failureBody(tool.CodeNotFound, "no event stream: commands are not accepted")
	}
	if int64(len(body)) > s.cfg.MaxBodyBytes {
		return CommandAccepted{}, nethttp.StatusRequestEntityTooLarge,
			failureBody(tool.CodeTooLarge, fmt.Sprintf("request body exceeds %d bytes", s.cfg.MaxBodyBytes))
	}
	req, args, refused := parseCommand(body, c.Subject)
	if refused != nil {
		return CommandAccepted{}, nethttp.StatusBadRequest, refusalBody(refused)
	}
	if !c.SeesEventsOf(req.Channel) {
		// Only a channel the token may watch: a workspace cannot queue commands on
		// another's channel, an operator token (events "*") can address any.
		return CommandAccepted{}, nethttp.StatusForbidden, failureBody(tool.CodeScopeDenied,
			fmt.Sprintf("channel %q is not this token's subject or one of its event subjects", req.Channel))
	}
	if b, ok := s.pub.(backlogger); ok {
		// Checked before the publish, not with it: concurrent posts of one subject may
		// overshoot by as many as are in flight.
		maxN, maxBytes := s.cfg.MaxPendingCommands, s.cfg.MaxPendingCommandBytes
		if n, size := b.Backlog(c.Subject, events.KindCommand); n >= maxN || size+len(body) > maxBytes {
			return CommandAccepted{}, nethttp.StatusTooManyRequests, failureBody(tool.CodeTooLarge, fmt.Sprintf(
				"%d commands (%d bytes) from %q are not yet acknowledged; at most %d (%d bytes) may wait: acknowledge some first",
				n, size, c.Subject, maxN, maxBytes))
		}
	}
	extra := map[string]any{}
	if args != nil {
		extra["args"] = args
	}
	ev := events.Command(req.Channel, req.Command, extra)
	ev.Seq, ev.CallID = seq, ref
	e, err := s.publish(ev, c.Subject)
	if err != nil {
		status := nethttp.StatusInternalServerError
		if errors.Is(err, events.ErrClosed) {
			status = nethttp.StatusServiceUnavailable
		}
		return CommandAccepted{}, status, failureBody(tool.CodeInternal, fmt.Sprintf("command not accepted: %v", err))
	}
	return CommandAccepted{EventID: e.EventID, Channel: e.Channel, Seq: e.Seq}, nethttp.StatusAccepted, nil
}
