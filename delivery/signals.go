package delivery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Signal is one signals.jsonl record (corpus §1.9), keys in the spec's order.
type Signal struct {
	ID          string `json:"id"`
	Message     string `json:"message"`
	CreatedAt   string `json:"created_at"`
	Read        bool   `json:"read"`
	Type        string `json:"type"`
	Sender      string `json:"sender"`
	Origin      string `json:"origin"`
	RemoteID    string `json:"remote_id"`
	WUID        string `json:"wu_id,omitempty"`
	Lane        string `json:"lane,omitempty"`
	TargetAgent string `json:"target_agent,omitempty"`
}

// SignalReceipt is one signal-receipts.jsonl record: the signal was read at ReadAt.
type SignalReceipt struct {
	SignalID string `json:"signal_id"`
	ReadAt   string `json:"read_at"`
}

// Signal defaults (corpus §1.9).
const (
	DefaultSignalType   = "coordination"
	DefaultSignalSender = "system"
	SignalOriginLocal   = "local"
)

// SignalsPath and ReceiptsPath are the absolute store files under root.
func SignalsPath(root string) string  { return filepath.Join(root, filepath.FromSlash(SignalsFile)) }
func ReceiptsPath(root string) string { return filepath.Join(root, filepath.FromSlash(ReceiptsFile)) }

// Validate checks the fields a signal must have.
func (s *Signal) Validate() error {
	if s.ID == "" {
		return errors.New("signal without id")
	}
	if _, err := ParseTimestamp(s.CreatedAt); err != nil {
		return fmt.Errorf("invalid created_at %q", s.CreatedAt)
	}
	return nil
}

// SignalStore is signals.jsonl and signal-receipts.jsonl as read, with the lines that did
// not parse (reported, skipped, never rewritten away by a reader).
type SignalStore struct {
	// Signals in file order, with Read as written.
	Signals []Signal
	// Receipts in file order.
	Receipts []SignalReceipt
	// Invalid and ReceiptInvalid are the skipped lines of each file.
	Invalid, ReceiptInvalid []storage.LineError

	receipted map[string]bool
}

// LoadSignals reads the signal store of root; missing files are empty.
func LoadSignals(root string) (*SignalStore, error) {
	sigs, bad, err := storage.ReadRecords(SignalsPath(root), validateSignal)
	if err != nil {
		return nil, Errorf(tool.CodeIOError, "%w", err)
	}
	recs, recBad, err := storage.ReadRecords(ReceiptsPath(root), validateReceipt)
	if err != nil {
		return nil, Errorf(tool.CodeIOError, "%w", err)
	}
	return NewSignalStore(sigs, bad, recs, recBad), nil
}

func validateSignal(s *Signal) error { return s.Validate() }

func validateReceipt(r *SignalReceipt) error {
	if r.SignalID == "" {
		return errors.New("receipt without signal_id")
	}
	return nil
}

// DecodeSignals decodes the lines of signals.jsonl as LoadSignals does: the valid signals
// in file order, and the skipped lines.
func DecodeSignals(lines []storage.Line) ([]Signal, []storage.LineError) {
	return storage.DecodeRecords(lines, validateSignal)
}

// DecodeReceipts decodes the lines of signal-receipts.jsonl as LoadSignals does.
func DecodeReceipts(lines []storage.Line) ([]SignalReceipt, []storage.LineError) {
	return storage.DecodeRecords(lines, validateReceipt)
}

// NewSignalStore is the store LoadSignals returns for the decoded files (DecodeSignals
// and DecodeReceipts).
func NewSignalStore(sigs []Signal, bad []storage.LineError, recs []SignalReceipt, recBad []storage.LineError) *SignalStore {
	s := &SignalStore{Signals: sigs, Receipts: recs, Invalid: bad, ReceiptInvalid: recBad, receipted: make(map[string]bool, len(recs))}
	for _, r := range recs {
		s.receipted[r.SignalID] = true
	}
	return s
}

// IsRead is the effective read state: read as written, or a receipt exists.
func (s *SignalStore) IsRead(sig Signal) bool { return sig.Read || s.receipted[sig.ID] }

// Effective returns the signals in file order with Read set to the effective state.
func (s *SignalStore) Effective() []Signal {
	out := make([]Signal, len(s.Signals))
	for i, sig := range s.Signals {
		sig.Read = s.IsRead(sig)
		out[i] = sig
	}
	return out
}

// Warnings renders the skipped lines as "signals.jsonl line <k>: <reason>" (and
// signal-receipts.jsonl).
func (s *SignalStore) Warnings() []string {
	var out []string
	for _, e := range s.Invalid {
		out = append(out, e.Warning("signals.jsonl"))
	}
	for _, e := range s.ReceiptInvalid {
		out = append(out, e.Warning("signal-receipts.jsonl"))
	}
	return out
}

// SignalInput is what a sender chooses; the store fills id, created_at, read, origin and
// remote_id. Empty Type and Sender take the defaults.
type SignalInput struct {
	Message, Type, Sender, WUID, Lane, TargetAgent string
}

// SendSignal appends one signal to root's store and returns it. The id is drawn (sig-,
// corpus §2.5) and checked against the file while holding the append lock, so concurrent
// senders, threads or processes, never write the same id nor interleave lines.
func SendSignal(root string, rt *Runtime, in SignalInput) (Signal, error) {
	sig := Signal{Message: in.Message, CreatedAt: Timestamp(rt.Now()), Type: in.Type, Sender: in.Sender,
		Origin: SignalOriginLocal, WUID: in.WUID, Lane: in.Lane, TargetAgent: in.TargetAgent}
	if sig.Type == "" {
		sig.Type = DefaultSignalType
	}
	if sig.Sender == "" {
		sig.Sender = DefaultSignalSender
	}
	path := SignalsPath(root)
	if err := storage.JournalAppend(path); err != nil {
		return Signal{}, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Signal{}, Errorf(tool.CodeIOError, "create %s: %w", filepath.Dir(SignalsFile), err)
	}
	f, err := storage.OpenLocked(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return Signal{}, Errorf(tool.CodeIOError, "%w", err)
	}
	defer f.Close()
	// Under the lock the file cannot change, so the ids read here are all the ids there are.
	lines, err := storage.ReadLines(path)
	if err != nil {
		return Signal{}, Errorf(tool.CodeIOError, "%w", err)
	}
	taken := map[string]bool{}
	for _, l := range lines {
		var probe struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(l.Raw, &probe) == nil {
			taken[probe.ID] = true
		}
	}
	sig.ID = NewID(rt, KindSignal, func(id string) bool { return taken[id] })
	sig.RemoteID = sig.ID
	rec, err := storage.MarshalRecord(sig)
	if err != nil {
		return Signal{}, Errorf(tool.CodeInternal, "encode signal: %w", err)
	}
	if last, err := storage.LastByte(path); err == nil && last != '\n' {
		rec = append([]byte{'\n'}, rec...)
	}
	if _, err := f.Write(rec); err != nil {
		return Signal{}, Errorf(tool.CodeIOError, "append to %s: %w", SignalsFile, err)
	}
	return sig, nil
}

// MarkSignalsRead appends one receipt per id, read at the given timestamp, in one write.
// Receipts are never edited.
func MarkSignalsRead(root string, ids []string, readAt string) error {
	if len(ids) == 0 {
		return nil
	}
	recs := make([]any, len(ids))
	for i, id := range ids {
		recs[i] = SignalReceipt{SignalID: id, ReadAt: readAt}
	}
	if err := storage.AppendJSONL(ReceiptsPath(root), recs...); err != nil {
		return Errorf(tool.CodeIOError, "%w", err)
	}
	return nil
}

// RewriteSignalStore replaces signals.jsonl with keep and drops the receipts of signals not
// in keep (signal:cleanup, state:doctor --fix). Unparsable lines of both files are kept
// verbatim, since a cleanup must not destroy what it cannot read.
func RewriteSignalStore(root string, keep []Signal) error {
	kept := map[string]bool{}
	var sigs bytes.Buffer
	for _, s := range keep {
		kept[s.ID] = true
	}
	lines, err := storage.ReadLines(SignalsPath(root))
	if err != nil {
		return Errorf(tool.CodeIOError, "%w", err)
	}
	byID := map[string]Signal{}
	for _, s := range keep {
		byID[s.ID] = s
	}
	for _, l := range lines {
		var s Signal
		if json.Unmarshal(l.Raw, &s) != nil || s.Validate() != nil {
			sigs.Write(l.Raw)
			sigs.WriteByte('\n')
			continue
		}
		if k, ok := byID[s.ID]; ok {
			delete(byID, s.ID)
			rec, err := storage.MarshalRecord(k)
			if err != nil {
				return Errorf(tool.CodeInternal, "encode signal: %w", err)
			}
			sigs.Write(rec)
		}
	}
	if err := storage.RewriteLines(SignalsPath(root), sigs.Bytes()); err != nil {
		return Errorf(tool.CodeIOError, "rewrite %s: %w", SignalsFile, err)
	}
	rlines, err := storage.ReadLines(ReceiptsPath(root))
	if err != nil {
		return Errorf(tool.CodeIOError, "%w", err)
	}
	var recs bytes.Buffer
	dropped := false
	for _, l := range rlines {
		var r SignalReceipt
		if json.Unmarshal(l.Raw, &r) == nil && r.SignalID != "" && !kept[r.SignalID] {
			dropped = true
			continue
		}
		recs.Write(l.Raw)
		recs.WriteByte('\n')
	}
	if dropped {
		if err := storage.RewriteLines(ReceiptsPath(root), recs.Bytes()); err != nil {
			return Errorf(tool.CodeIOError, "rewrite %s: %w", ReceiptsFile, err)
		}
	}
	return nil
}
