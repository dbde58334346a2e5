package broker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmdbridge/cmdbridge/surface/events"
)

// Stream names. A control plane provisions them ([EnsureStreams]); a sidecar only
// publishes into them and consumes its own commands.
const (
	// EventStream keeps the durable events of every workspace
	// (cmdbridge.*.events.<durable kind>).
	EventStream = "CMDBRIDGE_EVENTS"
	// CommandStream keeps the commands sent to every workspace (cmdbridge.*.commands).
	CommandStream = "CMDBRIDGE_COMMANDS"
)

// StreamOptions size the streams.
type StreamOptions struct {
	// Replicas is the number of servers holding each stream (1 on one server, 3 in a
	// three-node cluster so that losing a node loses nothing acknowledged).
	Replicas int
	// MaxAge bounds how long a message is kept (0: 7 days).
	MaxAge time.Duration
	// Duplicates is the window in which a repeated message id is dropped (0: 2 min).
	Duplicates time.Duration
}

// DurableEventSubjects are the subjects of EventStream: the durable kinds of every
// workspace. Ephemeral kinds are outside it on purpose, so the broker keeps nothing of
// them, as the event rules say.
func DurableEventSubjects() []string {
	var out []string
	for _, k := range events.Kinds() {
		if d, _ := events.Durable(k); d {
			out = append(out, Prefix+".*.events."+Escape(k))
		}
	}
	return out
}

// EnsureStreams creates or updates the two streams. It is the control plane's job; a
// sidecar whose credentials only allow cmdbridge.<ws>.> cannot do it.
func EnsureStreams(ctx context.Context, js jetstream.JetStream, o StreamOptions) error {
	if o.Replicas <= 0 {
		o.Replicas = 1
	}
	if o.MaxAge <= 0 {
		o.MaxAge = 7 * 24 * time.Hour
	}
	if o.Duplicates <= 0 {
		o.Duplicates = 2 * time.Minute
	}
	for _, cfg := range []jetstream.StreamConfig{
		{Name: EventStream, Subjects: DurableEventSubjects()},
		{Name: CommandStream, Subjects: []string{Prefix + ".*.commands"}},
	} {
		cfg.Storage = jetstream.FileStorage
		cfg.Retention = jetstream.LimitsPolicy
		cfg.Replicas = o.Replicas
		cfg.MaxAge = o.MaxAge
		cfg.Duplicates = o.Duplicates
		// Nothing here removes a message but its age: refusing purges and deletions
		// keeps any client that can make the account's JetStream act for it (see
		// WorkspacePermissions on reply subjects) from emptying a stream.
		cfg.DenyPurge, cfg.DenyDelete = true, true
		if _, err := js.CreateOrUpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("broker: stream %s: %w", cfg.Name, err)
		}
	}
	return nil
}

// CommandConsumer is the name of workspace ws's durable consumer on CommandStream.
// Consumer names may not hold '.', '*', '>' or whitespace; the readable part keeps
// letters, digits, '-' and '_' of the workspace id (at most 64), and a hash of the
// whole id keeps two workspaces from ever sharing a consumer.
func CommandConsumer(ws string) string {
	b := []byte("cmd_")
	for i := 0; i < len(ws) && len(b) < 68; i++ {
		c := ws[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			c = '_'
		}
		b = append(b, c)
	}
	sum := sha256.Sum256([]byte(ws))
	return string(b) + "_" + hex.EncodeToString(sum[:6])
}

// CommandConsumerConfig is workspace ws's command consumer: durable, pull (no deliver
// subject), filtered on cmdbridge.<ws>.commands alone, every command kept until
// acknowledged.
func CommandConsumerConfig(ws string) jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable: CommandConsumer(ws), FilterSubject: CommandSubject(ws),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second, MaxDeliver: -1,
		DeliverPolicy: jetstream.DeliverAllPolicy,
	}
}

// pinned reports whether cfg is what CommandConsumerConfig(ws) pins: a pull consumer
// on ws's command subject only.
func pinned(cfg jetstream.ConsumerConfig, ws string) bool {
	return cfg.DeliverSubject == "" && cfg.FilterSubject == CommandSubject(ws) && len(cfg.FilterSubjects) == 0
}

// EnsureCommandConsumer creates workspace ws's command consumer, the control plane's
// job (a workspace may not create consumers: WorkspacePermissions). One that exists
// but is not pinned — a push consumer, another filter — is deleted and made again.
func EnsureCommandConsumer(ctx context.Context, js jetstream.JetStream, ws string) error {
	cfg := CommandConsumerConfig(ws)
	c, err := js.Consumer(ctx, CommandStream, cfg.Durable)
	switch {
	case err == nil && pinned(c.CachedInfo().Config, ws):
		return nil
	case err == nil, errors.Is(err, jetstream.ErrNotPullConsumer):
		if err := js.DeleteConsumer(ctx, CommandStream, cfg.Durable); err != nil {
			return fmt.Errorf("broker: command consumer of %s: %w", ws, err)
		}
	case !errors.Is(err, jetstream.ErrConsumerNotFound):
		return fmt.Errorf("broker: command consumer of %s: %w", ws, err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, CommandStream, cfg); err != nil {
		return fmt.Errorf("broker: command consumer of %s: %w", ws, err)
	}
	return nil
}

// isMissingStream reports an error that means the streams are not provisioned yet.
func isMissingStream(err error) bool {
	return errors.Is(err, jetstream.ErrStreamNotFound) || errors.Is(err, jetstream.ErrNoStreamResponse)
}
