package wsindex

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// source is the delivery.Source of one call's workspace: the index, read with that
// call's configuration (the directories it names). Every method validates what it
// answers from and gives the errors the disk path gives.
type source struct {
	x  *Index
	ws *delivery.Workspace
	// fast: the call is past the barrier (covered entries need no stat).
	fast bool
	// writer: a writer's source, which takes the barrier again before every answer
	// (begin).
	writer bool
	// private: the WUs and initiatives handed out are copies (a writer's source).
	private bool
}

// WriterSource is a Source over the index for a writer's workspace ws (opened from the
// disk): the WUs and initiatives it hands out, alone or in listings, are private copies
// (delivery.WU.Clone, delivery.Initiative.Clone) the writer may change; the event log
// and the memory and signal stores are the shared values, which writers only read (they
// append to the files). TestToolsLeaveTheWarmIndexAsRead (nativetools/all) holds every
// native tool to that. A writer reads back what it wrote earlier in the same call: its
// source takes the barrier again before every answer (begin), so the watcher has handled
// those writes, or, when it cannot catch up, the answer is validated by a stat.
func (x *Index) WriterSource(ws *delivery.Workspace) delivery.Source {
	return &source{x: x, ws: ws, private: true, writer: true}
}

// begin starts one answer: a writer's source takes the barrier then (a reader's took it
// when its call began), since the writer's own writes come after any earlier one.
func (s *source) begin() {
	if s.writer {
		s.fast = s.x.sync()
	}
}

var _ delivery.Source = (*source)(nil)

// WU is delivery.ReadWU.
func (s *source) WU(id string) (*delivery.WU, error) {
	s.begin()
	s.x.mu.Lock()
	w, err := s.wu(id)
	s.x.mu.Unlock()
	s.x.flushWatches()
	if s.private {
		w = w.Clone()
	}
	return w, err
}

// wu reads one WU spec; x.mu is held.
func (s *source) wu(id string) (*delivery.WU, error) {
	rel := s.ws.WUPath(id)
	e, err := s.x.file(s.fast, rel, func(data []byte) (any, error) { return delivery.ParseWU(rel, data) })
	switch {
	case err != nil:
		return nil, delivery.WUReadError(id, rel, err)
	case !e.exists:
		return nil, delivery.WUReadError(id, rel, e.openErr)
	case e.err != nil:
		return nil, e.err
	}
	return e.val.(*delivery.WU), nil
}

// WUs is delivery.ListWUs.
func (s *source) WUs() ([]delivery.WUFile, error) {
	s.begin()
	s.x.mu.Lock()
	out, err := s.wus()
	s.x.mu.Unlock()
	s.x.flushWatches()
	return out, err
}

func (s *source) wus() ([]delivery.WUFile, error) {
	d, err := s.x.dir(s.fast, s.ws.WUDir(), wuIDs)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "read %s: %w", s.ws.Config.WUDir, err)
	}
	var ids []string
	if d.exists {
		ids = d.val.([]string)
	}
	out := make([]delivery.WUFile, 0, len(ids))
	for _, id := range ids {
		w, err := s.wu(id)
		if s.private {
			w = w.Clone()
		}
		out = append(out, delivery.WUFile{ID: id, WU: w, Err: err})
	}
	return out, nil
}

// wuIDs are the WU ids of a WU directory's files in ListWUs order, derived once per
// listing (sorting by number is the costly part of listing a large directory).
func wuIDs(names []name) any {
	ids := []string{}
	for _, n := range names {
		if id, ok := delivery.WUFileID(n.name); ok && !n.dir {
			ids = append(ids, id)
		}
	}
	delivery.SortWUIDs(ids)
	return ids
}

// Initiatives is delivery.ListInitiatives.
func (s *source) Initiatives() ([]*delivery.Initiative, error) {
	s.begin()
	s.x.mu.Lock()
	out, err := s.listInitiatives(s.private)
	s.x.mu.Unlock()
	s.x.flushWatches()
	return out, err
}

// ResolveInitiative is delivery.ResolveInitiative over the shared listing: only the
// initiative found is copied for a writer.
func (s *source) ResolveInitiative(ref string) (*delivery.Initiative, error) {
	s.begin()
	s.x.mu.Lock()
	all, err := s.listInitiatives(false)
	s.x.mu.Unlock()
	s.x.flushWatches()
	if err != nil {
		return nil, err
	}
	in, err := delivery.FindInitiative(all, ref)
	if err == nil && s.private {
		in = in.Clone()
	}
	return in, err
}

// listInitiatives lists the initiatives, copies when private. x.mu is held.
func (s *source) listInitiatives(private bool) ([]*delivery.Initiative, error) {
	d, err := s.x.dir(s.fast, s.ws.InitiativesDir(), initiativeIDs)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "read %s: %w", s.ws.Config.InitiativesDir, err)
	}
	if !d.exists {
		return nil, nil
	}
	var out []*delivery.Initiative
	for _, id := range d.val.([]string) {
		rel := s.ws.InitiativePath(id)
		e, err := s.x.file(s.fast, rel, func(data []byte) (any, error) { return delivery.ParseInitiative(rel, data) })
		switch {
		case err != nil:
			return nil, delivery.Errorf(tool.CodeIOError, "read %s: %w", rel, err)
		case !e.exists:
			return nil, delivery.Errorf(tool.CodeIOError, "read %s: %w", rel, e.openErr)
		case e.err != nil:
			return nil, e.err
		}
		in := e.val.(*delivery.Initiative)
		if private {
			in = in.Clone()
		}
		out = append(out, in)
	}
	delivery.SortInitiatives(out)
	return out, nil
}

// initiativeIDs are the initiative ids of a directory's files in directory order.
func initiativeIDs(names []name) any {
	var ids []string
	for _, n := range names {
		if id, ok := delivery.InitiativeFileID(n.name); ok && !n.dir {
			ids = append(ids, id)
		}
	}
	return ids
}

// Events is delivery.LoadEvents of the workspace root.
func (s *source) Events() (*delivery.EventLog, error) {
	s.begin()
	s.x.mu.Lock()
	defer s.x.flushWatches()
	defer s.x.mu.Unlock()
	x, path := s.x, delivery.EventsPath(s.x.root) // the parser, kept by the entry, keeps no call
	e, err := x.file(s.fast, delivery.EventsFile, func(data []byte) (any, error) {
		// x.files still holds the entry read before (x.mu is held while parsing).
		if prev := x.files[delivery.EventsFile]; prev != nil {
			if old, ok := prev.val.(*delivery.EventLog); ok {
				if tail, ok := appendedLines(prev, data); ok {
					return old.Extend(tail), nil
				}
			}
		}
		lines, err := storage.SplitLines(data)
		if err != nil {
			return nil, delivery.Errorf(tool.CodeIOError, "%w", fmt.Errorf("read %s: %w", path, err))
		}
		return delivery.EventLogOf(lines), nil
	})
	switch {
	case err != nil:
		return nil, delivery.Errorf(tool.CodeIOError, "%w", fmt.Errorf("read %s: %w", path, err))
	case !e.exists:
		return delivery.EventLogOf(nil), nil
	case e.err != nil:
		return nil, e.err
	}
	return e.val.(*delivery.EventLog), nil
}

// records are the decoded lines of one JSONL file of a store; nil is a missing file.
type records[T any] struct {
	items []T
	bad   []storage.LineError
}

// list is what ReadRecords gives: a missing file has no records (an empty list).
func (r *records[T]) list() []T {
	if r == nil {
		return []T{}
	}
	return r.items
}

func (r *records[T]) invalid() []storage.LineError {
	if r == nil {
		return nil
	}
	return r.bad
}

// jsonl is storage.ReadRecords of a root-relative file through the index, with the
// errors LoadMemory and LoadSignals give for it; nil for a missing file. x.mu is held.
func jsonl[T any](x *Index, fast bool, rel string, decode func([]storage.Line) ([]T, []storage.LineError)) (*records[T], error) {
	abs := x.abs(rel)
	fail := func(err error) error {
		return delivery.Errorf(tool.CodeIOError, "%w", fmt.Errorf("read %s: %w", abs, err))
	}
	e, err := x.file(fast, rel, func(data []byte) (any, error) {
		// x.files still holds the entry read before (x.mu is held while parsing).
		if prev := x.files[rel]; prev != nil {
			if r := appended(prev, data, decode); r != nil {
				return r, nil
			}
		}
		lines, err := storage.SplitLines(data)
		if err != nil {
			return nil, fail(err)
		}
		items, bad := decode(lines)
		return &records[T]{items: items, bad: bad}, nil
	})
	switch {
	case err != nil:
		return nil, fail(err)
	case !e.exists:
		return nil, nil
	case e.err != nil:
		return nil, e.err
	}
	return e.val.(*records[T]), nil
}

// appended decodes a JSONL file that only grew since prev was read (prev's bytes, whole
// lines, are a prefix of data: an append by any writer) by decoding the appended lines
// alone, numbered as in the whole file, after prev's records; nil when it did not only
// grow. The result is what decoding all of data gives.
func appended[T any](prev *entry, data []byte, decode func([]storage.Line) ([]T, []storage.LineError)) *records[T] {
	old, ok := prev.val.(*records[T])
	if !ok {
		return nil
	}
	lines, ok := appendedLines(prev, data)
	if !ok {
		return nil
	}
	items, bad := decode(lines)
	// Clipped: the old slices are shared with the values handed out, never written.
	return &records[T]{items: append(slices.Clip(old.items), items...), bad: append(slices.Clip(old.bad), bad...)}
}

// appendedLines are the lines appended to a JSONL file since prev was read, numbered as
// in the whole file (SplitLines of data would end with them), when the file only grew:
// prev parsed without error, its bytes are a prefix of data and end with a whole line.
func appendedLines(prev *entry, data []byte) ([]storage.Line, bool) {
	n := len(prev.data)
	if prev.err != nil || n == 0 || prev.data[n-1] != '\n' || !bytes.HasPrefix(data, prev.data) {
		return nil, false
	}
	lines, err := storage.SplitLines(data[n:])
	if err != nil {
		return nil, false // parsing the whole file reports it
	}
	before := bytes.Count(prev.data, []byte{'\n'}) // lines are counted from 1, blank ones too
	for i := range lines {
		lines[i].N += before
	}
	return lines, true
}

// Memory is delivery.LoadMemory of the workspace root: both files validated, the store
// built again only when one of them was re-parsed.
func (s *source) Memory() (*delivery.Memory, error) {
	s.begin()
	s.x.mu.Lock()
	defer s.x.flushWatches()
	defer s.x.mu.Unlock()
	nodes, err := jsonl(s.x, s.fast, delivery.MemoryFile, delivery.DecodeMemoryNodes)
	if err != nil {
		return nil, err
	}
	rels, err := jsonl(s.x, s.fast, delivery.RelationsFile, delivery.DecodeRelationships)
	if err != nil {
		return nil, err
	}
	m := s.x.joined("memory", nodes, rels, func() any {
		return delivery.NewMemory(nodes.list(), nodes.invalid(), rels.list(), rels.invalid())
	})
	return m.(*delivery.Memory), nil
}

// Signals is delivery.LoadSignals of the workspace root, as Memory.
func (s *source) Signals() (*delivery.SignalStore, error) {
	s.begin()
	s.x.mu.Lock()
	defer s.x.flushWatches()
	defer s.x.mu.Unlock()
	sigs, err := jsonl(s.x, s.fast, delivery.SignalsFile, delivery.DecodeSignals)
	if err != nil {
		return nil, err
	}
	recs, err := jsonl(s.x, s.fast, delivery.ReceiptsFile, delivery.DecodeReceipts)
	if err != nil {
		return nil, err
	}
	st := s.x.joined("signals", sigs, recs, func() any {
		return delivery.NewSignalStore(sigs.list(), sigs.invalid(), recs.list(), recs.invalid())
	})
	return st.(*delivery.SignalStore), nil
}
