package broker

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// CallRequest is one tool call a control plane sends to a workspace.
type CallRequest struct {
	Workspace string
	Tool      string
	// Token is a bearer token minted with the workspace's key. Empty: the call runs as
	// the workspace's control-plane caller (ControlCaller), which only the control
	// plane's NATS user can reach.
	Token string
	// Body is what POST /tools takes: the input object (empty: {}).
	Body []byte
	// Key is the idempotency key (Nats-Msg-Id). Retries of one call must reuse it; a
	// write call with a key runs at most once.
	Key string
}

// Reply is a workspace's answer to a call.
type Reply struct {
	// Status is what POST /tools would have answered: 200 once the call was dispatched,
	// whatever the tool did; 401, 403, 404, 400, 409 or 413 when refused.
	Status int
	// Body is the tool.Output as JSON.
	Body []byte
	// Replayed: the key had already run; Body is its recorded reply.
	Replayed bool
}

// Call sends req and waits for the reply, retrying with the same key when no reply
// comes within perTry (the request or the reply was lost, the workspace was away), at
// most attempts times. Retrying is safe only because of the key: without one, a write
// call could run again, so Call then tries once.
func Call(ctx context.Context, nc *nats.Conn, req CallRequest, attempts int, perTry time.Duration) (Reply, error) {
	if req.Key == "" || attempts < 1 {
		attempts = 1
	}
	var last error
	for range attempts {
		m := nats.NewMsg(ToolSubject(req.Workspace, req.Tool))
		if req.Token != "" {
			m.Header.Set(AuthHeader, "Bearer "+req.Token)
		}
		if req.Key != "" {
			m.Header.Set(nats.MsgIdHdr, req.Key)
		}
		m.Data = req.Body
		tctx, cancel := context.WithTimeout(ctx, perTry)
		r, err := nc.RequestMsgWithContext(tctx, m)
		cancel()
		if err == nil {
			status, perr := strconv.Atoi(r.Header.Get(StatusHeader))
			if perr != nil {
				return Reply{}, fmt.Errorf("broker: call %s on %s: reply without a status", req.Tool, req.Workspace)
			}
			return Reply{Status: status, Body: r.Data, Replayed: r.Header.Get(ReplayedHeader) == "true"}, nil
		}
		last = err
		if ctx.Err() != nil {
			break
		}
		if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrNoResponders) && !errors.Is(err, nats.ErrTimeout) {
			break
		}
		if errors.Is(err, nats.ErrNoResponders) {
			// Nobody serves the workspace right now: give it a moment rather than spin.
			t := time.NewTimer(perTry / 4)
			select {
			case <-ctx.Done():
				t.Stop()
				return Reply{}, callError(req, ctx.Err())
			case <-t.C:
			}
		}
	}
	return Reply{}, callError(req, last)
}

// callError says which call failed and, when it had a key, that a retry must reuse
// it: the call may have run, and only the same key keeps a retry from running it again.
func callError(req CallRequest, err error) error {
	if req.Key == "" {
		return fmt.Errorf("broker: call %s on %s: %w", req.Tool, req.Workspace, err)
	}
	return fmt.Errorf("broker: call %s on %s (idempotency key %q): %w", req.Tool, req.Workspace, req.Key, err)
}

// CommandSigner signs a command for workspace ws with message id key ([Issuer.SignCommand]).
type CommandSigner func(ws, key string, body []byte) (string, error)

// SendCommand publishes a command for workspace ws into the command stream, with key
// as its message id (the stream drops a repeat within its dedup window). body is what
// POST /commands takes. It carries no token: the stream keeps it for days, and the
// workspace runs it as its control-plane caller because only the control plane may
// publish on cmdbridge.<ws>.commands. It makes sure the workspace's command consumer
// exists first ([EnsureCommandConsumer]), so no command is sent before the consumer
// that keeps it for the workspace. It returns once JetStream has the command; the
// workspace takes it when it is connected.
//
// sign, when not nil, signs it for ws ([Issuer.SignCommand]); a workspace enrolled
// with issued credentials takes only signed commands, so that none the server
// delivered elsewhere on another workspace's behalf can pass for its own.
func SendCommand(ctx context.Context, js jetstream.JetStream, ws, key string, body []byte, sign CommandSigner) error {
	if err := EnsureCommandConsumer(ctx, js, ws); err != nil {
		return err
	}
	m := nats.NewMsg(CommandSubject(ws))
	m.Data = body
	if sign != nil {
		if key == "" {
			return fmt.Errorf("broker: command for %s: a signed command needs a key (its message id)", ws)
		}
		sig, err := sign(ws, key, body)
		if err != nil {
			return fmt.Errorf("broker: command for %s: %w", ws, err)
		}
		m.Header.Set(SignatureHeader, sig)
	}
	var opts []jetstream.PublishOpt
	if key != "" {
		opts = append(opts, jetstream.WithMsgID(key))
	}
	if _, err := js.PublishMsg(ctx, m, opts...); err != nil {
		return fmt.Errorf("broker: command for %s: %w", ws, err)
	}
	return nil
}

// RedactURLs is a comma-separated list of NATS server URLs fit to log: a password is
// replaced by "xxxxx", and so is a user name given without a password (nats://TOKEN@host
// is token auth), with or without a scheme. url.URL.Redacted keeps the latter.
func RedactURLs(urls string) string {
	parts := strings.Split(urls, ",")
	for i, p := range parts {
		at := strings.LastIndex(p, "@")
		if at < 0 {
			continue
		}
		start := 0
		if j := strings.Index(p[:at], "://"); j >= 0 {
			start = j + 3
		}
		user, _, hasPassword := strings.Cut(p[start:at], ":")
		if !hasPassword {
			user = "xxxxx"
		} else {
			user += ":xxxxx"
		}
		parts[i] = p[:start] + user + p[at:]
	}
	return strings.Join(parts, ",")
}
