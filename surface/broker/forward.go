package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmdbridge/cmdbridge/surface/events"
)

// ackBatch is how many JetStream-acknowledged events one outbox ack record retires: one
// fsync per batch. A crash between the broker's ack and ours re-sends at most a batch,
// with the same message ids, which the stream's dedup window drops.
const ackBatch = 64

// eventMsg is e as a NATS message on its workspace's subject. from is the enrolled
// subject: over the broker the workspace speaks for itself, and the broker's subject
// permissions prove it (the caller of a call stays in the channel of durable events).
func (s *Sidecar) eventMsg(e events.Event) (*nats.Msg, error) {
	e.From = s.cfg.Subject
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, fmt.Errorf("broker: event %s: %w", e.EventID, err)
	}
	m := nats.NewMsg(EventSubject(s.ws, e.Kind))
	m.Header.Set(nats.MsgIdHdr, e.EventID)
	m.Header.Set(KindHeader, e.Kind)
	m.Data = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return m, nil
}

// drain publishes the outbox's pending durable events to JetStream, oldest first, and
// retires each from the outbox only once JetStream has acknowledged it. A failure stops
// the pass where it is, so order holds; the next pass, after a backoff, starts again
// from the oldest pending event.
func (s *Sidecar) drain() {
	defer s.wg.Done()
	wait := 50 * time.Millisecond
	for {
		err := s.drainOnce()
		switch {
		case err == nil:
			wait = 50 * time.Millisecond
			select {
			case <-s.ctx.Done():
				return
			case <-s.wake:
			}
		case errors.Is(err, events.ErrClosed) || s.ctx.Err() != nil:
			return
		default:
			s.stats.drainErrors.Add(1)
			s.report(err)
			if !s.sleep(wait) {
				return
			}
			wait = s.backoff(wait)
		}
	}
}

func (s *Sidecar) drainOnce() error {
	s.mu.Lock()
	hub := s.hub
	s.mu.Unlock()
	var done []string
	retire := func() error {
		if len(done) == 0 {
			return nil
		}
		_, err := hub.Ack(done)
		if err == nil {
			s.stats.durable.Add(uint64(len(done)))
		}
		done = done[:0]
		return err
	}
	for _, e := range hub.Pending() {
		m, err := s.eventMsg(e)
		if err != nil {
			return errors.Join(err, retire())
		}
		ctx, cancel := context.WithTimeout(s.ctx, s.cfg.PublishTimeout)
		_, err = s.js.PublishMsg(ctx, m, jetstream.WithMsgID(e.EventID))
		cancel()
		if err != nil {
			return errors.Join(fmt.Errorf("broker: publish %s %s: %w", e.Kind, e.EventID, err), retire())
		}
		if done = append(done, e.EventID); len(done) >= ackBatch {
			if err := retire(); err != nil {
				return err
			}
		}
	}
	return retire()
}

// pumpEphemeral publishes queued ephemeral events as plain messages: nobody
// subscribed, nobody gets them. While the connection is away nats.go buffers a bounded
// amount and refuses the rest, which are dropped (and counted).
func (s *Sidecar) pumpEphemeral() {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case e := <-s.eph:
			m, err := s.eventMsg(e)
			if err == nil {
				err = s.cfg.Conn.PublishMsg(m)
			}
			if err != nil {
				s.stats.dropped.Add(1)
				continue
			}
			s.stats.ephemeral.Add(1)
		}
	}
}

// Announcement is what a workspace publishes on cmdbridge.<ws>.announce, at start and
// every Config.AnnounceEvery: a control plane lists workspaces by listening.
type Announcement struct {
	Workspace string `json:"workspace"`
	Subject   string `json:"subject"`
	// Name is the enrollment's human name, when it has one.
	Name  string   `json:"name,omitempty"`
	Tools []string `json:"tools"`
	// Enrollment is the enrollment token, for the control plane to verify
	// ([VerifyAnnouncement]); empty when the sidecar was given a subject without one.
	Enrollment string    `json:"enrollment,omitempty"`
	At         time.Time `json:"at"`
}

func (s *Sidecar) announce() {
	defer s.wg.Done()
	var tools []string
	if s.cfg.Server != nil {
		tools = s.cfg.Server.ToolNames()
	}
	publish := func() {
		b, err := json.Marshal(Announcement{Workspace: s.ws, Subject: s.cfg.Subject, Name: s.cfg.Name,
			Tools: tools, Enrollment: s.cfg.Enrollment, At: s.cfg.Now().UTC()})
		if err == nil {
			err = s.cfg.Conn.Publish(AnnounceSubject(s.ws), b)
		}
		if err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			s.report(fmt.Errorf("broker: announce: %w", err))
		}
	}
	// A control plane that starts listening asks everyone at once on DiscoverSubject;
	// the answer still goes out on the workspace's own announce subject, where the
	// broker's permissions vouch for it.
	asked := make(chan struct{}, 1)
	sub, err := s.cfg.Conn.Subscribe(DiscoverSubject, func(*nats.Msg) {
		select {
		case asked <- struct{}{}:
		default:
		}
	})
	if err != nil {
		s.report(fmt.Errorf("broker: discover: %w", err))
	} else {
		defer func() { _ = sub.Unsubscribe() }()
	}
	t := time.NewTicker(s.cfg.AnnounceEvery)
	defer t.Stop()
	for {
		publish()
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		case <-asked:
		}
	}
}
