package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmdbridge/cmdbridge/surface/events"
)

// DevicesFile is the control plane's device registry inside its state directory.
const DevicesFile = "devices.json"

// Devices maps enrolled subjects (<workspace_id> or <workspace_id>:phone:<device_id>)
// to human names. The control plane keeps both: the raw subject is the identity, the
// name is for people.
type Devices map[string]string

// LoadDevices reads the registry of stateDir (empty when there is none).
func LoadDevices(stateDir string) (Devices, error) {
	b, err := os.ReadFile(filepath.Join(stateDir, DevicesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Devices{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("devices: %w", err)
	}
	d := Devices{}
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("devices %s: %w", filepath.Join(stateDir, DevicesFile), err)
	}
	return d, nil
}

// Save writes the registry to stateDir (a temporary file renamed over the old one).
func (d Devices) Save(stateDir string) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("devices: %w", err)
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return fmt.Errorf("devices: %w", err)
	}
	path := filepath.Join(stateDir, DevicesFile)
	if err := os.WriteFile(path+".tmp", append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("devices: %w", err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return fmt.Errorf("devices: %w", err)
	}
	return nil
}

// ListWorkspaces asks every workspace to announce itself (DiscoverSubject), listens for
// the given time and returns the latest announcement of each subject, sorted by
// subject. Workspaces also announce every few seconds (10 s by default) by themselves.
func ListWorkspaces(ctx context.Context, nc *nats.Conn, listen time.Duration) ([]Announcement, error) {
	var (
		mu   sync.Mutex
		seen = map[string]Announcement{}
	)
	sub, err := nc.Subscribe(Prefix+".*.announce", func(m *nats.Msg) {
		var a Announcement
		if json.Unmarshal(m.Data, &a) != nil {
			return
		}
		// The subject's workspace is what the broker's permissions vouch for; an
		// announcement whose body claims another is ignored.
		if ws, _, _, err := parseSubject(m.Subject); err != nil || ws != a.Workspace || WorkspaceOf(a.Subject) != ws {
			return
		}
		mu.Lock()
		seen[a.Subject] = a
		mu.Unlock()
	})
	if err != nil {
		return nil, fmt.Errorf("conductor: listen to announcements: %w", err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	// Ask once the subscription is in place, so no answer is missed.
	if err := nc.Flush(); err != nil {
		return nil, fmt.Errorf("conductor: listen to announcements: %w", err)
	}
	if err := nc.Publish(DiscoverSubject, nil); err != nil {
		return nil, fmt.Errorf("conductor: discover: %w", err)
	}
	t := time.NewTimer(listen)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	mu.Lock()
	defer mu.Unlock()
	out := make([]Announcement, 0, len(seen))
	for _, a := range seen {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Subject < out[j].Subject })
	return out, nil
}

// Tailed is one event as a control plane sees it: the NATS subject it came on, the
// workspace that subject names, and whether it came through the durable consumer.
type Tailed struct {
	Subject string `json:"subject"`
	// Workspace is the workspace of Subject: the broker's permissions let only that
	// workspace publish there, so it is the event's producer whatever the body says.
	Workspace string `json:"workspace"`
	// Spoofed: the body's from named another workspace; Event.From was replaced by
	// Workspace.
	Spoofed bool         `json:"spoofed,omitempty"`
	Durable bool         `json:"durable"`
	Event   events.Event `json:"event"`
}

// Tail hands fn every event of every workspace until ctx ends: live ones from a plain
// subscription, and — with a durable consumer name — the durable kinds from the event
// stream, including those published while the control plane was away, acknowledged
// after fn returns. ready, when not nil, is called once every subscription is in place.
// Each event is handed over once per Tail and workspace (the most recent ids are
// remembered; the consumer's own acks keep the rest from coming back).
//
// An event's workspace is its subject's, never its body's: an event whose from names
// another workspace (or a device of one) is handed over with from set to the subject's
// workspace and Spoofed set, and duplicates are told apart per workspace, so no
// workspace can pass for another nor hide another's events by reusing their ids.
func Tail(ctx context.Context, nc *nats.Conn, durable string, ready func(), fn func(Tailed)) error {
	var (
		mu, fnMu sync.Mutex
		seen     = map[string]struct{}{}
	)
	const remember = 1 << 16
	deliver := func(subject string, data []byte, fromStream bool) {
		var e events.Event
		if json.Unmarshal(data, &e) != nil || e.EventID == "" {
			return
		}
		ws, area, _, err := parseSubject(subject)
		if err != nil || area != "events" {
			return
		}
		t := Tailed{Subject: subject, Workspace: ws, Durable: fromStream, Event: e}
		if WorkspaceOf(e.From) != ws {
			t.Event.From, t.Spoofed = ws, true
		}
		key := ws + "\x00" + e.EventID
		mu.Lock()
		_, dup := seen[key]
		if !dup {
			if len(seen) >= remember {
				clear(seen)
			}
			seen[key] = struct{}{}
		}
		mu.Unlock()
		if !dup {
			fnMu.Lock() // fn is called from two subscriptions: one at a time
			fn(t)
			fnMu.Unlock()
		}
	}
	sub, err := nc.Subscribe(Prefix+".*.events.>", func(m *nats.Msg) {
		if d, err := events.Durable(m.Header.Get(KindHeader)); durable != "" && (err != nil || d) {
			return // the consumer delivers these, with acknowledgement
		}
		deliver(m.Subject, m.Data, false)
	})
	if err != nil {
		return fmt.Errorf("conductor: tail: %w", err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if durable != "" {
		js, err := jetstream.New(nc)
		if err != nil {
			return fmt.Errorf("conductor: tail: %w", err)
		}
		cons, err := js.CreateOrUpdateConsumer(ctx, EventStream, jetstream.ConsumerConfig{
			Durable: durable, AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second,
		})
		if err != nil {
			return fmt.Errorf("conductor: tail: consumer %s: %w", durable, err)
		}
		cc, err := cons.Consume(func(m jetstream.Msg) {
			deliver(m.Subject(), m.Data(), true)
			_ = m.Ack()
		})
		if err != nil {
			return fmt.Errorf("conductor: tail: %w", err)
		}
		defer func() { cc.Stop(); <-cc.Closed() }()
	}
	if err := nc.Flush(); err != nil {
		return fmt.Errorf("conductor: tail: %w", err)
	}
	if ready != nil {
		ready()
	}
	<-ctx.Done()
	return nil
}
