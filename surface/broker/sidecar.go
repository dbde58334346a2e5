package broker

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// Headers of the NATS messages cmdbridge exchanges (besides Nats-Msg-Id, the
// idempotency key of a call and the dedup id of an event).
const (
	// AuthHeader carries "Bearer <token>" on a tool call, as on HTTP. A command never
	// carries one (it would sit in the command stream): a command runs as
	// Config.Control, and so does a call without the header.
	AuthHeader = "Authorization"
	// StatusHeader is the HTTP status POST /tools would have answered (200, 401, 404…).
	StatusHeader = "Cmdbridge-Status"
	// ReplayedHeader is "true" on the answer to a call whose key already ran: the body
	// is the recorded reply and the tool did not run again.
	ReplayedHeader = "Cmdbridge-Replayed"
	// StdinHeader "1" says the call's body is the {"input","stdin"} wrapper (?stdin=1).
	StdinHeader = "Cmdbridge-Stdin"
	// WorkspaceHeader, when a message has it, must name the receiving workspace.
	WorkspaceHeader = "Cmdbridge-Workspace"
	// KindHeader is an event's kind.
	KindHeader = "Cmdbridge-Kind"
	// SignatureHeader is the control plane's signature of a command ([Issuer.SignCommand]).
	SignatureHeader = "Cmdbridge-Signature"
)

// Config is what a Sidecar is built from.
type Config struct {
	// Conn is the broker connection; the caller connects it (with reconnects enabled)
	// and closes it after Sidecar.Close.
	Conn *nats.Conn
	// Subject is the enrolled subject, <workspace_id> or <workspace_id>:phone:<device>:
	// the workspace of every subject used, and the from of every event published.
	Subject string
	// Enrollment is the enrollment token Subject came from and Name its human name
	// (Enrollment); both are announced, for the control plane to verify and record.
	Enrollment, Name string
	// Server, when set, runs tool calls and accepts commands; without it the sidecar
	// only publishes events.
	Server *surfacehttp.Server
	// Control is the caller every command, and every tool call without a bearer token,
	// runs as: the control plane, configured on the workspace's side (its enrollment).
	// Its authority is the broker's: only the control plane's NATS user may publish on
	// this workspace's command and tool subjects (WorkspacePermissions keep every
	// workspace off them). Nil: commands and token-less calls are refused.
	Control *ControlCaller
	// CommandKey, when set, is the public key every command must be signed with, for
	// this workspace and its message id (VerifyCommand): the account that issued the
	// workspace's credentials (CommandKeyOf). A subject proves less than it seems: the
	// server itself publishes on any subject named as a reply, on anyone's behalf.
	CommandKey string
	// StateDir holds the idempotency log (required with Server).
	StateDir string
	// Retention is how long a keyed call's reply is kept for redeliveries (0: 24h).
	Retention time.Duration
	// MaxBackoff caps the wait between drain attempts while the broker is away (0: 2s).
	MaxBackoff time.Duration
	// CommandPoll caps the wait between looks for the command consumer while the
	// control plane has not created it yet (0: 30s).
	CommandPoll time.Duration
	// PublishTimeout bounds one JetStream publish (0: 5s).
	PublishTimeout time.Duration
	// AnnounceEvery is the announcement interval (0: 10s).
	AnnounceEvery time.Duration
	// MaxConcurrent bounds the calls run at once (0: 64).
	MaxConcurrent int
	// EphemeralQueue bounds the ephemeral events waiting for the connection (0: 1024).
	EphemeralQueue int
	// OnError is told what went wrong in the background (nil: ignored).
	OnError func(error)
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Stats are counters of a sidecar's life.
type Stats struct {
	Ephemeral        uint64 // ephemeral events published
	DroppedEphemeral uint64 // ephemeral events dropped: queue full or connection refused them
	Durable          uint64 // durable events JetStream acknowledged (then retired from the outbox)
	DrainErrors      uint64 // failed drain attempts (broker away, stream missing)
	Calls            uint64 // tool calls answered
	Replayed         uint64 // keyed calls answered from the idempotency log
	Commands         uint64 // commands accepted into the outbox
}

// Sidecar connects one workspace's event hub and HTTP server to the broker.
type Sidecar struct {
	cfg Config
	ws  string
	js  jetstream.JetStream
	log *callLog

	eph  chan events.Event
	wake chan struct{}
	sem  chan struct{}

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // background loops
	calls  sync.WaitGroup // call handlers

	mu      sync.Mutex
	hub     *events.Hub
	started bool
	closed  bool
	sub     *nats.Subscription

	stats struct {
		ephemeral, dropped, durable, drainErrors, calls, replayed, commands atomic.Uint64
	}
}

// New checks cfg and opens the idempotency log. Hand [Sidecar.Forward] to the hub's
// events.Config.Forward, then [Sidecar.Start] with the hub.
func New(cfg Config) (*Sidecar, error) {
	if cfg.Conn == nil {
		return nil, errors.New("broker: no connection")
	}
	if err := token.ValidateSubject(cfg.Subject); err != nil {
		return nil, fmt.Errorf("broker: enrolled subject: %w", err)
	}
	if cfg.Server != nil && cfg.StateDir == "" {
		return nil, errors.New("broker: StateDir is required to serve calls (the idempotency log lives there)")
	}
	if cfg.Retention <= 0 {
		cfg.Retention = 24 * time.Hour
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 2 * time.Second
	}
	if cfg.CommandPoll <= 0 {
		cfg.CommandPoll = 30 * time.Second
	}
	if cfg.PublishTimeout <= 0 {
		cfg.PublishTimeout = 5 * time.Second
	}
	if cfg.AnnounceEvery <= 0 {
		cfg.AnnounceEvery = 10 * time.Second
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = 64
	}
	if cfg.EphemeralQueue <= 0 {
		cfg.EphemeralQueue = 1024
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	js, err := jetstream.New(cfg.Conn)
	if err != nil {
		return nil, fmt.Errorf("broker: jetstream: %w", err)
	}
	s := &Sidecar{
		cfg: cfg, ws: WorkspaceOf(cfg.Subject), js: js,
		eph:  make(chan events.Event, cfg.EphemeralQueue),
		wake: make(chan struct{}, 1),
		sem:  make(chan struct{}, cfg.MaxConcurrent),
	}
	if cfg.Server != nil {
		if s.log, err = openCallLog(cfg.StateDir, cfg.Retention, cfg.Now()); err != nil {
			return nil, err
		}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s, nil
}

// Workspace is the workspace id the sidecar speaks for.
func (s *Sidecar) Workspace() string { return s.ws }

// Forward is the hub's events.Config.Forward: it never blocks. An ephemeral event is
// queued for a plain publish (dropped, and counted, when the queue is full); a durable
// one is already in the outbox, so the drainer is only woken.
func (s *Sidecar) Forward(e events.Event, durable bool) {
	if durable {
		s.poke()
		return
	}
	select {
	case s.eph <- e:
	default:
		s.stats.dropped.Add(1)
	}
}

func (s *Sidecar) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Start begins draining hub's outbox to JetStream, publishing ephemeral events,
// announcing the workspace, and — with a Server — answering tool calls and consuming
// the workspace's commands. Nothing here waits for the broker (beyond a one-second
// flush of the call subscription): while it is away, calls cannot arrive and durable
// events wait in the outbox.
func (s *Sidecar) Start(hub *events.Hub) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started || s.closed {
		return errors.New("broker: sidecar already started or closed")
	}
	s.started, s.hub = true, hub
	if s.cfg.Server != nil {
		sub, err := s.cfg.Conn.Subscribe(Prefix+"."+Escape(s.ws)+".tools.*", s.onCall)
		if err != nil {
			return fmt.Errorf("broker: subscribe to tool calls: %w", err)
		}
		s.sub = sub
		// Best effort: the server knows the subscription before Start returns when it is
		// reachable; when it is not, the subscription is sent on (re)connect.
		_ = s.cfg.Conn.FlushTimeout(time.Second)
		s.wg.Add(1)
		go s.consumeCommands()
	}
	s.wg.Add(3)
	go s.drain()
	go s.pumpEphemeral()
	go s.announce()
	return nil
}

// Close stops every loop, waits for the calls in flight (the Server's own Close
// cancels them) and closes the idempotency log. The hub and the connection stay the
// caller's.
func (s *Sidecar) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	sub := s.sub
	s.mu.Unlock()
	var errs []error
	if sub != nil {
		if err := sub.Unsubscribe(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			errs = append(errs, fmt.Errorf("broker: unsubscribe: %w", err))
		}
	}
	s.cancel()
	s.wg.Wait()
	s.calls.Wait()
	if s.log != nil {
		errs = append(errs, s.log.close())
	}
	return errors.Join(errs...)
}

// Stats returns the sidecar's counters.
func (s *Sidecar) Stats() Stats {
	return Stats{
		Ephemeral: s.stats.ephemeral.Load(), DroppedEphemeral: s.stats.dropped.Load(),
		Durable: s.stats.durable.Load(), DrainErrors: s.stats.drainErrors.Load(),
		Calls: s.stats.calls.Load(), Replayed: s.stats.replayed.Load(), Commands: s.stats.commands.Load(),
	}
}

func (s *Sidecar) report(err error) {
	if err != nil && s.cfg.OnError != nil {
		s.cfg.OnError(err)
	}
}

// sleep waits d unless the sidecar closes first; it reports whether to go on.
func (s *Sidecar) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// backoff doubles d up to the configured cap.
func (s *Sidecar) backoff(d time.Duration) time.Duration {
	if d *= 2; d > s.cfg.MaxBackoff {
		d = s.cfg.MaxBackoff
	}
	return d
}
