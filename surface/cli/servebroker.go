package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
)

// brokerStateDir is the broker's entry in the state directory (the idempotency log).
const brokerStateDir = "broker"

// serveBroker is what serve needs to join a broker: where, as whom, and the sidecar
// once started. With no URL it is inert.
type serveBroker struct {
	url, creds string
	name       string // the NATS connection's name: who serves, as the server lists it
	enrollment broker.Enrollment
	// commandKey is what commands must be signed with: set when the credentials are a
	// workspace user a cmdbridge control plane issued (broker.IssuedCommandKey).
	commandKey string
	sc         atomic.Pointer[broker.Sidecar]
}

// brokerOf reads --nats / --nats-creds (its errors say serve), falling back to the config file's nats key and
// then, for the credentials, to those enroll installed in the state directory, and the
// workspace's enrollment (required with a broker: it is the sidecar's identity).
func brokerOf(opts *serveOptions, ws, state string) (*serveBroker, error) {
	fc, err := loadWorkspaceConfig(ws)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	b := &serveBroker{url: opts.NATS, creds: opts.NATSCreds, name: opts.Host.Name + " serve " + opts.Host.version()}
	if fc.NATS != nil {
		if b.url == "" {
			b.url = fc.NATS.URL
		}
		if b.creds == "" {
			b.creds = fc.NATS.Creds
		}
	}
	if p := filepath.Join(state, broker.CredsFile); b.creds == "" && fileExists(p) {
		b.creds = p
	}
	e, ok, err := broker.LoadEnrollment(state)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	if ok {
		b.enrollment = e
	}
	if b.url != "" && !ok {
		return nil, errors.New("serve --nats: this workspace is not enrolled; run 'cmdbridge enroll TOKEN' with the token your control plane issued")
	}
	if b.url != "" && b.creds != "" {
		creds, err := os.ReadFile(b.creds)
		if err != nil {
			return nil, fmt.Errorf("serve --nats-creds: %w", err)
		}
		// Issued credentials: the server also delivers on anyone's behalf to any subject
		// named as a reply, so a command must carry the control plane's signature.
		if key, issued, err := broker.IssuedCommandKey(creds, broker.WorkspaceOf(e.Subject)); err == nil && issued {
			b.commandKey = key
		}
	}
	return b, nil
}

// forward is the hub's Forward hook; events published before the sidecar exists stay
// in the outbox (durable, drained at start) or are dropped (ephemeral, as with nobody
// listening).
func (b *serveBroker) forward(e events.Event, durable bool) {
	if sc := b.sc.Load(); sc != nil {
		sc.Forward(e, durable)
	}
}

// start connects (retrying in the background when the broker is away: serving HTTP
// never waits for it) and starts the sidecar; stop closes both.
func (b *serveBroker) start(srv *surfacehttp.Server, hub *events.Hub, dir string, onError func(error)) (stop func(), err error) {
	opts := []nats.Option{
		nats.Name(b.name + " " + b.enrollment.Subject),
		nats.MaxReconnects(-1), nats.RetryOnFailedConnect(true), nats.ReconnectWait(time.Second),
		// Replies come to inboxes only this workspace's credentials may read.
		nats.CustomInboxPrefix(broker.InboxPrefix(broker.WorkspaceOf(b.enrollment.Subject))),
	}
	if b.creds != "" {
		opts = append(opts, nats.UserCredentials(b.creds))
	}
	nc, err := nats.Connect(b.url, opts...)
	if err != nil {
		return nil, fmt.Errorf("nats %s: %w", broker.RedactURLs(b.url), err)
	}
	sc, err := broker.New(broker.Config{
		Conn: nc, Subject: b.enrollment.Subject, Enrollment: b.enrollment.Token, Name: b.enrollment.Name,
		Server: srv, Control: b.enrollment.Control, CommandKey: b.commandKey, StateDir: dir, OnError: onError,
	})
	if err != nil {
		nc.Close()
		return nil, err
	}
	if err := sc.Start(hub); err != nil {
		nc.Close()
		return nil, err
	}
	b.sc.Store(sc)
	return func() {
		if err := sc.Close(); err != nil {
			onError(err)
		}
		nc.Close()
	}, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
