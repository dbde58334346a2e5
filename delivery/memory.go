package delivery

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Memory node types (corpus §1.8).
const (
	MemTypeSession    = "session"
	MemTypeDiscovery  = "discovery"
	MemTypeCheckpoint = "checkpoint"
	MemTypeNote       = "note"
	MemTypeSummary    = "summary"
)

// Memory lifecycles (corpus §1.8).
const (
	LifecycleEphemeral = "ephemeral"
	LifecycleSession   = "session"
	LifecycleWU        = "wu"
	LifecycleProject   = "project"
)

// Memory node statuses kept in metadata.status.
const (
	MemStatusClosed   = "closed"
	MemStatusArchived = "archived"
	MemStatusDeleted  = "deleted"
)

// Relationship types of relationships.jsonl.
const (
	RelBlocks         = "blocks"
	RelParentChild    = "parent_child"
	RelRelated        = "related"
	RelDiscoveredFrom = "discovered_from"
)

// MemoryTypes lists the node types in spec order.
var MemoryTypes = []string{MemTypeSession, MemTypeDiscovery, MemTypeCheckpoint, MemTypeNote, MemTypeSummary}

var memLifecycles = map[string]string{
	MemTypeSession: LifecycleWU, MemTypeDiscovery: LifecycleWU, MemTypeCheckpoint: LifecycleSession,
	MemTypeNote: LifecycleSession, MemTypeSummary: LifecycleProject,
}

// Lifecycles lists the node lifecycles in spec order.
var Lifecycles = []string{LifecycleEphemeral, LifecycleSession, LifecycleWU, LifecycleProject}

// LifecycleOf is the lifecycle a new node of type t gets, and whether t is a node type.
func LifecycleOf(t string) (string, bool) {
	l, ok := memLifecycles[t]
	return l, ok
}

var memIDRe = regexp.MustCompile(MemoryIDPattern)

// ValidMemoryID reports whether id is a memory node id (mem-xxxx, or hierarchical mem-xxxx.1).
func ValidMemoryID(id string) bool { return memIDRe.MatchString(id) }

// MemoryID is corpus §2.5's memory id: "mem-" + the first 4 hex characters of sha256(basis),
// or of sha256(basis + "#" + k) for k = 1, 2, … while exists reports the id taken.
func MemoryID(basis string, exists func(id string) bool) string {
	for k := 0; ; k++ {
		b := basis
		if k > 0 {
			b = basis + "#" + strconv.Itoa(k)
		}
		sum := sha256.Sum256([]byte(b))
		id := "mem-" + hex.EncodeToString(sum[:])[:4]
		if exists == nil || !exists(id) {
			return id
		}
	}
}

// Object is a JSON object that keeps its members in order, so a node's metadata (and any key
// we do not interpret) survives a read–append round trip unchanged. The zero value is empty.
type Object struct {
	keys []string
	vals map[string]json.RawMessage
}

// Keys returns the member names in order.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return slices.Clone(o.keys)
}

// Len is the number of members.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// Raw returns a member's JSON value.
func (o *Object) Raw(key string) (json.RawMessage, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
}

// String returns a string member, or "" when it is absent or not a string.
func (o *Object) String(key string) string {
	raw, ok := o.Raw(key)
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// Strings returns a member holding a string or a list of strings, or nil.
func (o *Object) Strings(key string) []string {
	raw, ok := o.Raw(key)
	if !ok {
		return nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	if s := o.String(key); s != "" {
		return []string{s}
	}
	return nil
}

// Set sets key to v (appended at the end when new, in place otherwise).
func (o *Object) Set(key string, v any) {
	raw, err := marshalCompact(v)
	if err != nil {
		panic(fmt.Sprintf("delivery.Object.Set %s: %v", key, err)) // callers pass plain values
	}
	if o.vals == nil {
		o.vals = map[string]json.RawMessage{}
	}
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = raw
}

// Delete removes key.
func (o *Object) Delete(key string) {
	if o == nil {
		return
	}
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	o.keys = slices.DeleteFunc(o.keys, func(k string) bool { return k == key })
}

// Clone returns a deep copy (nil stays nil).
func (o *Object) Clone() *Object {
	if o == nil {
		return nil
	}
	c := &Object{keys: slices.Clone(o.keys), vals: make(map[string]json.RawMessage, len(o.vals))}
	for k, v := range o.vals {
		c.vals[k] = slices.Clone(v)
	}
	return c
}

// MarshalJSON writes the members in order without HTML escaping.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	if o != nil {
		for i, k := range o.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(jsonString(k))
			b.WriteByte(':')
			b.Write(o.vals[k])
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a JSON object keeping member order; a repeated key keeps its first
// position and its last value.
func (o *Object) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return &json.UnmarshalTypeError{Value: "non-object", Type: reflect.TypeOf(map[string]any{})}
	}
	o.keys, o.vals = nil, map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		k := tok.(string)
		if _, ok := o.vals[k]; !ok {
			o.keys = append(o.keys, k)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, v); err != nil {
			return err
		}
		o.vals[k] = c.Bytes()
	}
	_, err = dec.Token()
	return err
}

func marshalCompact(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// MemNode is one version of a memory node (corpus §1.8). Keys are written in the spec's
// order; keys we do not know are kept in Extra and written after them.
type MemNode struct {
	ID        string
	Type      string
	Lifecycle string
	Content   string
	CreatedAt string
	UpdatedAt string // optional
	WUID      string // optional
	SessionID string // optional
	Metadata  *Object
	Tags      []string
	Extra     *Object
}

var memKnownKeys = []string{"id", "type", "lifecycle", "content", "created_at", "updated_at", "wu_id", "session_id", "metadata", "tags"}

// MarshalJSON writes id, type, lifecycle, content, created_at, then the optional fields
// when set, then unknown keys.
func (n *MemNode) MarshalJSON() ([]byte, error) {
	o := &Object{}
	o.Set("id", n.ID)
	o.Set("type", n.Type)
	o.Set("lifecycle", n.Lifecycle)
	o.Set("content", n.Content)
	o.Set("created_at", n.CreatedAt)
	for _, f := range []struct{ k, v string }{{"updated_at", n.UpdatedAt}, {"wu_id", n.WUID}, {"session_id", n.SessionID}} {
		if f.v != "" {
			o.Set(f.k, f.v)
		}
	}
	if n.Metadata.Len() > 0 {
		o.Set("metadata", n.Metadata)
	}
	if len(n.Tags) > 0 {
		o.Set("tags", n.Tags)
	}
	for _, k := range n.Extra.Keys() {
		raw, _ := n.Extra.Raw(k)
		o.Set(k, raw)
	}
	return o.MarshalJSON()
}

// UnmarshalJSON reads a node; type errors in known fields fail the line.
func (n *MemNode) UnmarshalJSON(data []byte) error {
	var o Object
	if err := o.UnmarshalJSON(data); err != nil {
		return err
	}
	*n = MemNode{}
	str := func(k string, dst *string) error {
		raw, ok := o.Raw(k)
		if !ok || string(raw) == "null" {
			return nil
		}
		if json.Unmarshal(raw, dst) != nil {
			return &json.UnmarshalTypeError{Field: k, Type: reflect.TypeOf("")}
		}
		return nil
	}
	for _, f := range []struct {
		k   string
		dst *string
	}{{"id", &n.ID}, {"type", &n.Type}, {"lifecycle", &n.Lifecycle}, {"content", &n.Content},
		{"created_at", &n.CreatedAt}, {"updated_at", &n.UpdatedAt}, {"wu_id", &n.WUID}, {"session_id", &n.SessionID}} {
		if err := str(f.k, f.dst); err != nil {
			return err
		}
	}
	if raw, ok := o.Raw("metadata"); ok && string(raw) != "null" {
		n.Metadata = &Object{}
		if err := n.Metadata.UnmarshalJSON(raw); err != nil {
			return &json.UnmarshalTypeError{Field: "metadata", Type: reflect.TypeOf(map[string]any{})}
		}
	}
	if raw, ok := o.Raw("tags"); ok && string(raw) != "null" {
		if json.Unmarshal(raw, &n.Tags) != nil {
			return &json.UnmarshalTypeError{Field: "tags", Type: reflect.TypeOf([]string{})}
		}
	}
	for _, k := range o.Keys() {
		if !slices.Contains(memKnownKeys, k) {
			if n.Extra == nil {
				n.Extra = &Object{}
			}
			raw, _ := o.Raw(k)
			n.Extra.Set(k, raw)
		}
	}
	return nil
}

// Validate checks the fields every node must have (corpus §1.8).
func (n *MemNode) Validate() error {
	switch {
	case !ValidMemoryID(n.ID):
		return fmt.Errorf("invalid id %q", n.ID)
	case !slices.Contains(MemoryTypes, n.Type):
		return fmt.Errorf("invalid type %q", n.Type)
	case !slices.Contains(Lifecycles, n.Lifecycle):
		return fmt.Errorf("invalid lifecycle %q", n.Lifecycle)
	case n.Content == "":
		return errors.New("empty content")
	}
	if _, err := ParseTimestamp(n.CreatedAt); err != nil {
		return fmt.Errorf("invalid created_at %q", n.CreatedAt)
	}
	return nil
}

// Clone returns a deep copy, the starting point of an appended update.
func (n *MemNode) Clone() *MemNode {
	c := *n
	c.Metadata = n.Metadata.Clone()
	c.Extra = n.Extra.Clone()
	c.Tags = slices.Clone(n.Tags)
	return &c
}

// Meta returns the node's metadata object, creating it when absent.
func (n *MemNode) Meta() *Object {
	if n.Metadata == nil {
		n.Metadata = &Object{}
	}
	return n.Metadata
}

// Status is metadata.status ("" when unset).
func (n *MemNode) Status() string { return n.Metadata.String("status") }

// Deleted reports whether the node is soft-deleted: invisible to every command except
// mem:cleanup.
func (n *MemNode) Deleted() bool { return n.Status() == MemStatusDeleted }

// Hidden reports whether mem:ready, mem:triage and mem:context skip the node (closed,
// archived or deleted).
func (n *MemNode) Hidden() bool {
	switch n.Status() {
	case MemStatusClosed, MemStatusArchived, MemStatusDeleted:
		return true
	}
	return false
}

// Priority is metadata.priority ("" when unset).
func (n *MemNode) Priority() string { return n.Metadata.String("priority") }

// Created is created_at as a time (zero when it does not parse, which validation excludes).
func (n *MemNode) Created() time.Time {
	t, _ := ParseTimestamp(n.CreatedAt)
	return t
}

// Relationship is one relationships.jsonl record.
type Relationship struct {
	FromID    string `json:"from_id"`
	ToID      string `json:"to_id"`
	Type      string `json:"type"`
	CreatedAt string `json:"created_at"`
}

// Memory is memory.jsonl and relationships.jsonl as read: the latest version of each node in
// first-appearance order, the relationships, and the lines that did not parse or validate
// (reported, skipped, never rewritten away by a reader).
type Memory struct {
	// Nodes holds the latest version of every id, deleted ones included, in the order the
	// ids first appear in the file.
	Nodes []*MemNode
	// Relationships in file order.
	Relationships []Relationship
	// Invalid and RelInvalid are the skipped lines of memory.jsonl and relationships.jsonl.
	Invalid, RelInvalid []storage.LineError

	byID map[string]int
}

// MemoryPath and friends are the absolute paths of the memory store files under root.
func MemoryPath(root string) string    { return filepath.Join(root, filepath.FromSlash(MemoryFile)) }
func relationsPath(root string) string { return filepath.Join(root, filepath.FromSlash(RelationsFile)) }

// LoadMemory reads the memory store of root. Missing files are an empty store.
func LoadMemory(root string) (*Memory, error) {
	nodes, bad, err := storage.ReadRecords(MemoryPath(root), validateNode)
	if err != nil {
		return nil, Errorf(tool.CodeIOError, "%w", err)
	}
	rels, relBad, err := storage.ReadRecords(relationsPath(root), validateRelationship)
	if err != nil {
		return nil, Errorf(tool.CodeIOError, "%w", err)
	}
	return NewMemory(nodes, bad, rels, relBad), nil
}

func validateNode(n *MemNode) error { return n.Validate() }

func validateRelationship(r *Relationship) error {
	if r.FromID == "" || r.ToID == "" || r.Type == "" {
		return errors.New("relationship needs from_id, to_id and type")
	}
	return nil
}

// DecodeMemoryNodes decodes the lines of memory.jsonl as LoadMemory does: the valid
// node versions in file order, and the skipped lines.
func DecodeMemoryNodes(lines []storage.Line) ([]MemNode, []storage.LineError) {
	return storage.DecodeRecords(lines, validateNode)
}

// DecodeRelationships decodes the lines of relationships.jsonl as LoadMemory does.
func DecodeRelationships(lines []storage.Line) ([]Relationship, []storage.LineError) {
	return storage.DecodeRecords(lines, validateRelationship)
}

// NewMemory is the store LoadMemory returns for the decoded files (DecodeMemoryNodes and
// DecodeRelationships). Its nodes point into nodes, which must not change afterwards.
func NewMemory(nodes []MemNode, bad []storage.LineError, rels []Relationship, relBad []storage.LineError) *Memory {
	m := &Memory{Relationships: rels, Invalid: bad, RelInvalid: relBad, byID: make(map[string]int, len(nodes))}
	for i := range nodes {
		m.put(&nodes[i])
	}
	return m
}

// put records a version: last line wins, first appearance keeps the position.
func (m *Memory) put(n *MemNode) {
	if i, ok := m.byID[n.ID]; ok {
		m.Nodes[i] = n
		return
	}
	m.byID[n.ID] = len(m.Nodes)
	m.Nodes = append(m.Nodes, n)
}

// Get returns the latest version of id (deleted nodes included), or nil.
func (m *Memory) Get(id string) *MemNode {
	if i, ok := m.byID[id]; ok {
		return m.Nodes[i]
	}
	return nil
}

// Exists reports whether any version of id is in memory.jsonl (the id-collision test of
// corpus §2.5).
func (m *Memory) Exists(id string) bool {
	_, ok := m.byID[id]
	return ok
}

// Visible returns the nodes that are not deleted, in first-appearance order.
func (m *Memory) Visible() []*MemNode {
	var out []*MemNode
	for _, n := range m.Nodes {
		if !n.Deleted() {
			out = append(out, n)
		}
	}
	return out
}

// Warnings renders the skipped lines as "memory.jsonl line <k>: <reason>" (and
// relationships.jsonl), in file order.
func (m *Memory) Warnings() []string {
	var out []string
	for _, e := range m.Invalid {
		out = append(out, e.Warning("memory.jsonl"))
	}
	for _, e := range m.RelInvalid {
		out = append(out, e.Warning("relationships.jsonl"))
	}
	return out
}

// Open reports whether a node is open in the sense of mem:ready: not ephemeral, not
// closed/archived/deleted, no metadata.blocked_by, and not the target of a blocks
// relationship whose source is open.
func (m *Memory) Open(n *MemNode) bool { return m.open(n, map[string]bool{}) }

func (m *Memory) open(n *MemNode, seen map[string]bool) bool {
	if n.Lifecycle == LifecycleEphemeral || n.Hidden() || len(n.Metadata.Strings("blocked_by")) > 0 {
		return false
	}
	if seen[n.ID] {
		return true // a blocks cycle: do not let it hide every member
	}
	seen[n.ID] = true
	for _, r := range m.Relationships {
		if r.Type != RelBlocks || r.ToID != n.ID {
			continue
		}
		if src := m.Get(r.FromID); src != nil && m.open(src, seen) {
			return false
		}
	}
	return true
}

// SortNodes orders nodes by created_at, then id.
func SortNodes(nodes []*MemNode) {
	sort.SliceStable(nodes, func(i, j int) bool {
		a, b := nodes[i].Created(), nodes[j].Created()
		if !a.Equal(b) {
			return a.Before(b)
		}
		return nodes[i].ID < nodes[j].ID
	})
}

// ReadyNodes is mem:ready: the open nodes of wu (of type typ when not empty), by priority
// (P0 first, none last), then created_at, then id.
func (m *Memory) ReadyNodes(wu, typ string) []*MemNode {
	var out []*MemNode
	for _, n := range m.Nodes {
		if n.WUID == wu && (typ == "" || n.Type == typ) && m.Open(n) {
			out = append(out, n)
		}
	}
	SortNodes(out)
	rank := func(n *MemNode) int {
		switch p := n.Priority(); p {
		case "P0", "P1", "P2", "P3":
			return int(p[1] - '0')
		}
		return 4
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

// AppendMemory appends node versions to memory.jsonl in one write. Each is validated first.
func AppendMemory(root string, nodes ...*MemNode) error {
	recs := make([]any, len(nodes))
	for i, n := range nodes {
		if err := n.Validate(); err != nil {
			return Errorf(tool.CodeInternal, "memory node %s: %w", n.ID, err)
		}
		recs[i] = n
	}
	if err := storage.AppendJSONL(MemoryPath(root), recs...); err != nil {
		return Errorf(tool.CodeIOError, "%w", err)
	}
	return nil
}

// AppendRelationships appends relationship records in one write.
func AppendRelationships(root string, rels ...Relationship) error {
	recs := make([]any, len(rels))
	for i, r := range rels {
		recs[i] = r
	}
	if err := storage.AppendJSONL(relationsPath(root), recs...); err != nil {
		return Errorf(tool.CodeIOError, "%w", err)
	}
	return nil
}

// MemoryConfigYAML is the config.yaml mem:init writes (corpus §1.8; informational only).
const MemoryConfigYAML = "version: 1\nretention:\n  ephemeral: 0\n  session: 3600\n  wu: 604800\n  project: -1\n"

// InitMemory creates .lumenflow/memory/, an empty memory.jsonl and config.yaml when they are
// missing; existing files are never touched. It reports which files it created.
func InitMemory(root string) (createdJSONL, createdConfig bool, err error) {
	dir := filepath.Join(root, filepath.FromSlash(MemoryDir))
	if err := storage.JournalMkdir(dir); err != nil {
		return false, false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, false, Errorf(tool.CodeIOError, "create %s: %w", MemoryDir, err)
	}
	create := func(name string, data []byte) (bool, error) {
		if err := storage.JournalWrite(filepath.Join(dir, name)); err != nil {
			return false, err
		}
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		if err != nil {
			return false, Errorf(tool.CodeIOError, "create %s/%s: %w", MemoryDir, name, err)
		}
		defer f.Close()
		if _, err := f.Write(data); err != nil {
			return true, Errorf(tool.CodeIOError, "write %s/%s: %w", MemoryDir, name, err)
		}
		return true, nil
	}
	if createdJSONL, err = create("memory.jsonl", nil); err != nil {
		return createdJSONL, false, err
	}
	createdConfig, err = create("config.yaml", []byte(MemoryConfigYAML))
	return createdJSONL, createdConfig, err
}

// CleanupOptions are mem:cleanup's selectors. state:cleanup passes TTL =
// Config.SessionTTL ("mem:cleanup with its defaults").
type CleanupOptions struct {
	// TTL removes non-project nodes older than it (0: no age rule), except nodes of the
	// session active in sessions/current.json.
	TTL time.Duration
	// SessionID removes the session-lifecycle nodes of that session ("" : none).
	SessionID string
	// DryRun computes the result without writing.
	DryRun bool
}

// CleanupMemory is mem:cleanup (corpus §3.4): it removes ephemeral nodes, deleted nodes,
// summarised non-project nodes, the session-lifecycle nodes of opts.SessionID and, with a
// TTL, old non-project nodes outside the active session; then rewrites memory.jsonl with one
// line per remaining id (latest version, first-appearance order) and drops relationships
// touching removed ids. Lines that do not parse are kept verbatim in place: a cleanup never
// destroys data it cannot read. removed lists ids in first-appearance order; kept counts the
// remaining nodes; the byte counts are memory.jsonl's size before and after (after is
// what it would be, in a dry run).
func CleanupMemory(ws *Workspace, rt *Runtime, opts CleanupOptions) (removed []string, kept int, bytesBefore, bytesAfter int64, err error) {
	path := MemoryPath(ws.Root)
	lines, err := storage.ReadLines(path)
	if err != nil {
		return nil, 0, 0, 0, Errorf(tool.CodeIOError, "%w", err)
	}
	if fi, err := os.Stat(path); err == nil {
		bytesBefore = fi.Size()
	}
	active := ""
	if s, err := ReadSession(ws.Root); err == nil && s != nil {
		active = s.SessionID
	}
	now := rt.Now()
	m := &Memory{byID: map[string]int{}}
	parsed := make([]*MemNode, len(lines))
	for i, l := range lines {
		var n MemNode
		if json.Unmarshal(l.Raw, &n) == nil && n.Validate() == nil {
			parsed[i] = &n
			m.put(&n)
		}
	}
	gone := map[string]bool{}
	for _, n := range m.Nodes {
		remove := n.Lifecycle == LifecycleEphemeral || n.Deleted() ||
			(n.Metadata.String("summarized_into") != "" && n.Lifecycle != LifecycleProject) ||
			(opts.SessionID != "" && n.Lifecycle == LifecycleSession && n.SessionID == opts.SessionID) ||
			(opts.TTL > 0 && n.Lifecycle != LifecycleProject && (active == "" || n.SessionID != active) &&
				now.Sub(n.Created()) > opts.TTL)
		if remove {
			gone[n.ID] = true
			removed = append(removed, n.ID)
		} else {
			kept++
		}
	}
	var out bytes.Buffer
	written := map[string]bool{}
	for i, l := range lines {
		n := parsed[i]
		if n == nil {
			out.Write(l.Raw)
			out.WriteByte('\n')
			continue
		}
		if gone[n.ID] || written[n.ID] {
			continue
		}
		written[n.ID] = true
		rec, err := storage.MarshalRecord(m.Get(n.ID))
		if err != nil {
			return nil, 0, 0, 0, Errorf(tool.CodeInternal, "encode %s: %w", n.ID, err)
		}
		out.Write(rec)
	}
	bytesAfter = int64(out.Len())
	if removed == nil {
		removed = []string{}
	}
	if opts.DryRun {
		return removed, kept, bytesBefore, bytesAfter, nil
	}
	if len(lines) > 0 || bytesBefore > 0 {
		if err := storage.RewriteLines(path, out.Bytes()); err != nil {
			return nil, 0, 0, 0, Errorf(tool.CodeIOError, "rewrite %s: %w", MemoryFile, err)
		}
	}
	if len(gone) > 0 {
		if err := dropRelationships(ws.Root, gone); err != nil {
			return nil, 0, 0, 0, err
		}
	}
	return removed, kept, bytesBefore, bytesAfter, nil
}

// dropRelationships rewrites relationships.jsonl without the records touching gone ids,
// keeping unparsable lines verbatim; the file is left alone when nothing is dropped.
func dropRelationships(root string, gone map[string]bool) error {
	path := relationsPath(root)
	lines, err := storage.ReadLines(path)
	if err != nil {
		return Errorf(tool.CodeIOError, "%w", err)
	}
	var out bytes.Buffer
	dropped := false
	for _, l := range lines {
		var r Relationship
		if json.Unmarshal(l.Raw, &r) == nil && (gone[r.FromID] || gone[r.ToID]) {
			dropped = true
			continue
		}
		out.Write(l.Raw)
		out.WriteByte('\n')
	}
	if !dropped {
		return nil
	}
	if err := storage.RewriteLines(path, out.Bytes()); err != nil {
		return Errorf(tool.CodeIOError, "rewrite %s: %w", RelationsFile, err)
	}
	return nil
}
