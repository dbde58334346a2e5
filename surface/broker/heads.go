package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/mod/sumdb/note"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/events"
)

// PublishCheckpoints is the kernel's EvidenceConfig.OnCheckpoint of a sidecar's
// workspace: every signed head of its evidence log becomes a durable
// evidence:checkpoint event, which the outbox keeps until JetStream has it and the
// control plane's [KeepHeads] stores it. It never waits for the broker; a head the hub
// refuses (closed) is reported to onErr and published again, linked to the heads
// below it, when the log next opens.
func PublishCheckpoints(hub *events.Hub, onErr func(error)) func(evidence.Checkpoint) {
	return func(cp evidence.Checkpoint) {
		b, err := json.Marshal(cp)
		var payload map[string]any
		if err == nil {
			err = json.Unmarshal(b, &payload)
		}
		if err == nil {
			_, err = hub.Publish(context.Background(), events.Checkpoint(payload))
		}
		// A closed hub is the serve's shutdown: the log's final head is published again
		// when it next opens.
		if err != nil && !errors.Is(err, events.ErrClosed) && onErr != nil {
			onErr(fmt.Errorf("evidence checkpoint %d: %w", cp.N, err))
		}
	}
}

// ErrHeadRefused is wrapped by the errors of a head that is not validly signed (or
// not a head at all): nothing is kept, and receiving it again changes nothing.
var ErrHeadRefused = errors.New("head refused")

// HeadSubjects is the subject of every workspace's published heads.
func HeadSubjects() string { return Prefix + ".*.events." + Escape(events.KindCheckpoint) }

// Head is one signed tree head as a control plane keeps it: the checkpoint the
// workspace published, when it was received, and — when the head does not fit the
// heads kept before it — why (Conflict). A head with a conflict is kept all the same:
// `cmdbridge evidence verify --published` holds the log to every head kept.
type Head struct {
	evidence.Checkpoint
	At time.Time `json:"at"`
	// Conflict says why the head does not extend the heads kept: signed by another key
	// than the workspace's first, another root at a size already kept (a fork), a
	// consistency proof that fails, or no link to the heads kept (a log that started
	// over). Empty for a head that fits.
	Conflict string `json:"conflict,omitempty"`
	// Unlinked is set on a head whose proof starts at a head this store never got (it
	// may have been signed by a process that does not publish): kept, unchecked.
	Unlinked bool `json:"unlinked,omitempty"`
}

// HeadStore keeps the signed heads of every workspace that publishes them: one file
// per workspace, <Dir>/<escaped workspace id>.jsonl, one [Head] per line, only ever
// appended to. Each line is also a checkpoint line of the witness file's form, so the
// file (or `cmdbridge conductor checkpoints WS`) is what `evidence verify --published`
// reads. The first head of a workspace pins its verifier key.
type HeadStore struct {
	dir string
	mu  sync.Mutex
}

// OpenHeadStore opens (creating) the store in dir.
func OpenHeadStore(dir string) (*HeadStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("heads: %w", err)
	}
	return &HeadStore{dir: dir}, nil
}

func (s *HeadStore) path(ws string) string { return filepath.Join(s.dir, Escape(ws)+".jsonl") }

// Heads returns the heads kept for ws, in the order received.
func (s *HeadStore) Heads(ws string) ([]Head, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.read(ws)
}

func (s *HeadStore) read(ws string) ([]Head, error) {
	data, err := os.ReadFile(s.path(ws))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("heads of %s: %w", ws, err)
	}
	var out []Head
	for _, line := range strings.Split(string(data), "\n") {
		var h Head
		if strings.TrimSpace(line) == "" || json.Unmarshal([]byte(line), &h) != nil {
			continue
		}
		out = append(out, h)
	}
	return out, nil
}

// Add checks cp, published by workspace ws, and keeps it. A head whose note does not
// verify under the key it names is refused (an error, nothing kept). A head that
// repeats one already kept is not kept twice (the returned Head is the one kept).
// Otherwise the head is kept, with a Conflict when it does not extend what was kept:
// that is the control plane seeing a workspace's log rewound, forked or re-keyed.
func (s *HeadStore) Add(ws string, cp evidence.Checkpoint, now time.Time) (Head, error) {
	v, err := note.NewVerifier(strings.TrimSpace(cp.Verifier))
	if err != nil {
		return Head{}, fmt.Errorf("%w: head %d of %s: verifier key: %v", ErrHeadRefused, cp.N, ws, err)
	}
	tree, err := cp.Tree(v)
	if err != nil {
		return Head{}, fmt.Errorf("%w: head %d of %s: %v", ErrHeadRefused, cp.N, ws, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	kept, err := s.read(ws)
	if err != nil {
		return Head{}, err
	}
	h := Head{Checkpoint: cp, At: now.UTC()}
	byN := map[int64]Head{}
	for _, k := range kept {
		if k.Conflict == "" {
			byN[k.N] = k
		}
	}
	switch {
	case len(kept) > 0 && kept[0].Verifier != cp.Verifier:
		h.Conflict = "signed by another key than the workspace's first head (" + kept[0].Verifier + "): the log was started over or re-signed"
	case byN[cp.N].Root != "" && byN[cp.N].Root == cp.Root:
		return byN[cp.N], nil
	case byN[cp.N].Root != "":
		h.Conflict = fmt.Sprintf("another root at size %d than the head kept: the log forked or was rewritten", cp.N)
	case cp.PrevN == 0 && len(byN) > 0:
		h.Conflict = "no consistency proof from any head kept: the log lost its checkpoints or started over"
	case cp.PrevN > 0 && byN[cp.PrevN].Root == "":
		h.Unlinked = true
	case cp.PrevN > 0:
		older, err := byN[cp.PrevN].Tree(v)
		if err == nil {
			err = evidence.CheckConsistency(older, tree, cp.Proof)
		}
		if err != nil {
			h.Conflict = err.Error()
		}
	}
	line, err := json.Marshal(h)
	if err != nil {
		return Head{}, err
	}
	f, err := os.OpenFile(s.path(ws), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return Head{}, fmt.Errorf("heads of %s: %w", ws, err)
	}
	_, err = f.Write(append(line, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Head{}, fmt.Errorf("heads of %s: %w", ws, err)
	}
	return h, nil
}

// Workspaces lists the workspaces the store holds heads of, sorted.
func (s *HeadStore) Workspaces() ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("heads: %w", err)
	}
	var out []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok {
			continue
		}
		if ws, err := Unescape(name); err == nil {
			out = append(out, ws)
		}
	}
	sort.Strings(out)
	return out, nil
}

// KeepHeads stores every workspace's published heads until ctx ends: it consumes the
// evidence:checkpoint events of the event stream through the durable consumer named
// durable (so heads published while it was away arrive when it returns), adds each to
// store under the workspace its subject names (the broker's permissions vouch for
// it, not the body), and acknowledges it once stored. kept, when not nil, is told of
// every head and every refusal; ready, when not nil, is called once the consumer runs.
func KeepHeads(ctx context.Context, nc *nats.Conn, durable string, store *HeadStore, ready func(), kept func(ws string, h Head, err error)) error {
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("conductor: heads: %w", err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, EventStream, jetstream.ConsumerConfig{
		Durable: durable, AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second,
		FilterSubject: HeadSubjects(),
	})
	if err != nil {
		return fmt.Errorf("conductor: heads: consumer %s: %w", durable, err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		ws, h, err := keepHead(store, m.Subject(), m.Data())
		if kept != nil {
			kept(ws, h, err)
		}
		if err != nil && !errors.Is(err, ErrHeadRefused) {
			_ = m.Nak() // the store could not write: the head comes again
			return
		}
		_ = m.Ack()
	})
	if err != nil {
		return fmt.Errorf("conductor: heads: %w", err)
	}
	defer func() { cc.Stop(); <-cc.Closed() }()
	if ready != nil {
		ready()
	}
	<-ctx.Done()
	return nil
}

// keepHead decodes one evidence:checkpoint message and adds its head to store.
func keepHead(store *HeadStore, subject string, data []byte) (string, Head, error) {
	ws, _, _, err := parseSubject(subject)
	if err != nil {
		return "", Head{}, fmt.Errorf("%w: %v", ErrHeadRefused, err)
	}
	var e events.Event
	var cp evidence.Checkpoint
	if err := json.Unmarshal(data, &e); err != nil || e.Kind != events.KindCheckpoint {
		return ws, Head{}, fmt.Errorf("%w: not an %s event", ErrHeadRefused, events.KindCheckpoint)
	}
	b, err := json.Marshal(e.Payload)
	if err == nil {
		err = json.Unmarshal(b, &cp)
	}
	if err != nil {
		return ws, Head{}, fmt.Errorf("%w: payload: %v", ErrHeadRefused, err)
	}
	h, err := store.Add(ws, cp, time.Now())
	return ws, h, err
}
