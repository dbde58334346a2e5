package delivery

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Lock policies of a lane definition (corpus §1.11).
const (
	LockAll    = "all"
	LockActive = "active"
	LockNone   = "none"
)

// Config is the typed view of workspace.yaml (corpus §1.2) with every default applied. A key
// whose value has the wrong type keeps its default and is recorded in Problems; commands
// that read the key call [Config.Check] and fail with CONFIG_INVALID.
type Config struct {
	ID   string
	Name string
	// HasSoftwareDelivery is false when the software_delivery block is missing (doctor warns).
	HasSoftwareDelivery bool

	WUDir          string // default docs/tasks/wu
	InitiativesDir string // default docs/tasks/initiatives
	PlansDir       string // default docs/plans
	WorktreesDir   string // default worktrees/ (as written; see WorktreePath)

	Lanes []LaneDef
	Gates []Gate

	AutoCommit       bool   // default true
	Push             bool   // default false
	LaneBranchPrefix string // default lane/

	MinDescriptionLength int    // default 50
	DefaultPriority      string // default P2
	DefaultType          string // default feature

	SessionTTL           time.Duration // default 7d
	CheckpointTTL        time.Duration // default 30d
	SignalTTL            time.Duration // default 7d
	SignalUnreadTTL      time.Duration // default 30d
	SignalMaxEntries     int           // default 500
	DelegationContextMax int           // default 4096 bytes
	EventArchiveAfter    time.Duration // default 90d
	CleanupCommitMessage string        // default "chore: lumenflow state cleanup [skip ci]"
	AgentsDefaultClient  string        // default claude-code

	// Problems maps a dotted key to the CONFIG_INVALID error for its value.
	Problems map[string]*Error
}

// LaneDef is one software_delivery.lanes.definitions entry.
type LaneDef struct {
	Name        string
	WIPLimit    int
	LockPolicy  string
	CodePaths   []string
	Description string
}

// Gate is one gate command in canonical form.
type Gate struct {
	Name     string
	Run      string
	DocsOnly bool
	Timeout  time.Duration
}

// DefaultGateTimeout applies to a gate without a timeout.
const DefaultGateTimeout = 10 * time.Minute

// DefaultConfig returns the configuration of a workspace.yaml without a software_delivery block.
func DefaultConfig() *Config {
	return &Config{
		WUDir:                "docs/tasks/wu",
		InitiativesDir:       "docs/tasks/initiatives",
		PlansDir:             "docs/plans",
		WorktreesDir:         "worktrees/",
		AutoCommit:           true,
		LaneBranchPrefix:     "lane/",
		MinDescriptionLength: 50,
		DefaultPriority:      "P2",
		DefaultType:          "feature",
		SessionTTL:           604800000 * time.Millisecond,
		CheckpointTTL:        2592000000 * time.Millisecond,
		SignalTTL:            604800000 * time.Millisecond,
		SignalUnreadTTL:      2592000000 * time.Millisecond,
		SignalMaxEntries:     500,
		DelegationContextMax: 4096,
		EventArchiveAfter:    7776000000 * time.Millisecond,
		CleanupCommitMessage: "chore: lumenflow state cleanup [skip ci]",
		AgentsDefaultClient:  "claude-code",
		Problems:             map[string]*Error{},
	}
}

// Check returns the first CONFIG_INVALID error among keys equal to or under one of the
// given dotted prefixes (all keys when none is given), in key order; nil when all are valid.
func (c *Config) Check(prefixes ...string) error {
	keys := make([]string, 0, len(c.Problems))
	for k := range c.Problems {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if len(prefixes) == 0 {
			return c.Problems[k]
		}
		for _, p := range prefixes {
			if k == p || strings.HasPrefix(k, p+".") || strings.HasPrefix(k, p+"[") {
				return c.Problems[k]
			}
		}
	}
	return nil
}

// Lane returns the definition of the named lane (exact match) and whether it is defined. An
// undefined lane behaves as wip_limit 1, lock_policy all, no code paths.
func (c *Config) Lane(name string) (LaneDef, bool) {
	for _, l := range c.Lanes {
		if l.Name == name {
			return l, true
		}
	}
	return LaneDef{Name: name, WIPLimit: 1, LockPolicy: LockAll}, false
}

// LaneByKebab returns the defined lane whose kebab is k.
func (c *Config) LaneByKebab(k string) (LaneDef, bool) {
	for _, l := range c.Lanes {
		if Kebab(l.Name) == k {
			return l, true
		}
	}
	return LaneDef{}, false
}

// ParseConfig builds the typed configuration from a workspace.yaml document node.
func ParseConfig(doc *yaml.Node) *Config {
	c := DefaultConfig()
	root := storage.Root(doc)
	p := configParser{c: c}
	if root == nil || storage.IsNull(root) {
		return c
	}
	if root.Kind != yaml.MappingNode {
		p.fail("workspace.yaml", root, "a mapping")
		return c
	}
	p.str(root, "id", &c.ID)
	p.str(root, "name", &c.Name)
	sd := storage.MapGet(root, "software_delivery")
	if sd == nil || storage.IsNull(sd) {
		return c
	}
	c.HasSoftwareDelivery = true
	const pre = "software_delivery"
	if !p.mapping(pre, sd) {
		return c
	}
	if d := storage.MapGet(sd, "directories"); p.mapping(pre+".directories", d) {
		p.str(d, "wuDir", &c.WUDir)
		p.str(d, "initiativesDir", &c.InitiativesDir)
		p.str(d, "plansDir", &c.PlansDir)
		p.str(d, "worktrees", &c.WorktreesDir)
	}
	if l := storage.MapGet(sd, "lanes"); p.mapping(pre+".lanes", l) {
		p.lanes(pre+".lanes.definitions", storage.MapGet(l, "definitions"))
	}
	if g := storage.MapGet(sd, "gates"); p.mapping(pre+".gates", g) {
		p.gates(pre+".gates.commands", storage.MapGet(g, "commands"))
	}
	if g := storage.MapGet(sd, "git"); p.mapping(pre+".git", g) {
		p.boolean(g, "auto_commit", &c.AutoCommit)
		p.boolean(g, "push", &c.Push)
		p.str(g, "laneBranchPrefix", &c.LaneBranchPrefix)
	}
	if w := storage.MapGet(sd, "wu"); p.mapping(pre+".wu", w) {
		p.integer(w, "minDescriptionLength", &c.MinDescriptionLength)
		p.enum(w, "defaultPriority", &c.DefaultPriority, Priorities)
		p.enum(w, "defaultType", &c.DefaultType, WUTypes)
	}
	if m := storage.MapGet(sd, "memory"); p.mapping(pre+".memory", m) {
		p.millis(m, "sessionTtl", &c.SessionTTL)
		p.millis(m, "checkpointTtl", &c.CheckpointTTL)
		p.integer(m, "delegation_context_max_size", &c.DelegationContextMax)
		if s := storage.MapGet(m, "signalCleanup"); p.mapping(pre+".memory.signalCleanup", s) {
			p.millis(s, "ttl", &c.SignalTTL)
			p.millis(s, "unreadTtl", &c.SignalUnreadTTL)
			p.integer(s, "maxEntries", &c.SignalMaxEntries)
		}
	}
	if s := storage.MapGet(sd, "state"); p.mapping(pre+".state", s) {
		if e := storage.MapGet(s, "eventArchival"); p.mapping(pre+".state.eventArchival", e) {
			p.millis(e, "archiveAfter", &c.EventArchiveAfter)
		}
	}
	if cl := storage.MapGet(sd, "cleanup"); p.mapping(pre+".cleanup", cl) {
		p.str(cl, "commit_message", &c.CleanupCommitMessage)
	}
	if a := storage.MapGet(sd, "agents"); p.mapping(pre+".agents", a) {
		p.str(a, "defaultClient", &c.AgentsDefaultClient)
	}
	return c
}

// configParser reads typed values and records wrong types; prefix is the dotted key of the
// mapping last accepted by mapping().
type configParser struct {
	c      *Config
	prefix string
}

func (p *configParser) fail(key string, n *yaml.Node, want string) {
	if _, dup := p.c.Problems[key]; dup {
		return
	}
	p.c.Problems[key] = Errorf(tool.CodeConfigInvalid,
		"workspace.yaml: %s must be %s, found %s", key, want, storage.KindName(n))
}

func (p *configParser) key(k string) string {
	if p.prefix == "" {
		return k
	}
	return p.prefix + "." + k
}

// mapping reports whether n is a usable mapping (absent and null are not, silently).
func (p *configParser) mapping(key string, n *yaml.Node) bool {
	if n == nil || storage.IsNull(n) {
		return false
	}
	if n.Kind != yaml.MappingNode {
		p.fail(key, n, "a mapping")
		return false
	}
	p.prefix = key
	return true
}

func (p *configParser) str(m *yaml.Node, k string, dst *string) {
	n := storage.MapGet(m, k)
	if n == nil || storage.IsNull(n) {
		return
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != storage.TagStr {
		p.fail(p.key(k), n, "a string")
		return
	}
	*dst = n.Value
}

func (p *configParser) enum(m *yaml.Node, k string, dst *string, allowed []string) {
	var v string
	n := storage.MapGet(m, k)
	before := len(p.c.Problems)
	p.str(m, k, &v)
	if n == nil || storage.IsNull(n) || len(p.c.Problems) != before {
		return
	}
	for _, a := range allowed {
		if a == v {
			*dst = v
			return
		}
	}
	p.fail(p.key(k), n, "one of "+strings.Join(allowed, ", "))
}

func (p *configParser) boolean(m *yaml.Node, k string, dst *bool) {
	n := storage.MapGet(m, k)
	if n == nil || storage.IsNull(n) {
		return
	}
	var b bool
	if n.Kind != yaml.ScalarNode || n.ShortTag() != storage.TagBool || n.Decode(&b) != nil {
		p.fail(p.key(k), n, "a boolean")
		return
	}
	*dst = b
}

func (p *configParser) integer(m *yaml.Node, k string, dst *int) {
	n := storage.MapGet(m, k)
	if n == nil || storage.IsNull(n) {
		return
	}
	i, ok := intValue(n)
	if !ok {
		p.fail(p.key(k), n, "an integer")
		return
	}
	*dst = int(i)
}

func (p *configParser) millis(m *yaml.Node, k string, dst *time.Duration) {
	n := storage.MapGet(m, k)
	if n == nil || storage.IsNull(n) {
		return
	}
	i, ok := intValue(n)
	if !ok {
		p.fail(p.key(k), n, "an integer (milliseconds)")
		return
	}
	*dst = time.Duration(i) * time.Millisecond
}

func intValue(n *yaml.Node) (int64, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != storage.TagInt {
		return 0, false
	}
	var i int64
	if n.Decode(&i) != nil {
		return 0, false
	}
	return i, true
}

func (p *configParser) lanes(key string, n *yaml.Node) {
	if n == nil || storage.IsNull(n) {
		return
	}
	if n.Kind != yaml.SequenceNode {
		p.fail(key, n, "a list")
		return
	}
	seen := map[string]bool{}
	for i, item := range n.Content {
		ik := fmt.Sprintf("%s[%d]", key, i)
		item = storage.Deref(item)
		if item.Kind != yaml.MappingNode {
			p.fail(ik, item, "a mapping")
			continue
		}
		p.prefix = ik
		l := LaneDef{WIPLimit: 1, LockPolicy: LockAll}
		p.str(item, "name", &l.Name)
		if l.Name == "" {
			if _, bad := p.c.Problems[ik+".name"]; !bad {
				p.c.Problems[ik+".name"] = Errorf(tool.CodeConfigInvalid, "workspace.yaml: %s.name is required", ik)
			}
			continue
		}
		if seen[l.Name] {
			p.c.Problems[ik+".name"] = Errorf(tool.CodeConfigInvalid, "workspace.yaml: lane %q is defined twice", l.Name)
			continue
		}
		seen[l.Name] = true
		p.integer(item, "wip_limit", &l.WIPLimit)
		if l.WIPLimit < 1 {
			p.c.Problems[ik+".wip_limit"] = Errorf(tool.CodeConfigInvalid, "workspace.yaml: %s.wip_limit must be an integer ≥ 1", ik)
			l.WIPLimit = 1
		}
		p.enum(item, "lock_policy", &l.LockPolicy, []string{LockAll, LockActive, LockNone})
		if cp, err := storage.StringList(storage.MapGet(item, "code_paths")); err != nil {
			p.c.Problems[ik+".code_paths"] = Errorf(tool.CodeConfigInvalid, "workspace.yaml: %s.code_paths: %v", ik, err)
		} else {
			l.CodePaths = cp
		}
		p.str(item, "description", &l.Description)
		p.c.Lanes = append(p.c.Lanes, l)
	}
}

func (p *configParser) gates(key string, n *yaml.Node) {
	if n == nil || storage.IsNull(n) {
		return
	}
	switch n.Kind {
	case yaml.SequenceNode:
		seen := map[string]bool{}
		for i, item := range n.Content {
			ik := fmt.Sprintf("%s[%d]", key, i)
			item = storage.Deref(item)
			if item.Kind != yaml.MappingNode {
				p.fail(ik, item, "a mapping")
				continue
			}
			p.prefix = ik
			g := Gate{Timeout: DefaultGateTimeout}
			p.str(item, "name", &g.Name)
			p.str(item, "run", &g.Run)
			p.boolean(item, "docs_only", &g.DocsOnly)
			if t := storage.MapGet(item, "timeout"); t != nil && !storage.IsNull(t) {
				d, err := ParseDuration(t.Value)
				if t.Kind != yaml.ScalarNode || err != nil {
					p.fail(ik+".timeout", t, "a duration like 30m, 24h or 7d")
				} else {
					g.Timeout = d
				}
			}
			if g.Name == "" || seen[g.Name] {
				p.c.Problems[ik+".name"] = Errorf(tool.CodeConfigInvalid, "workspace.yaml: %s.name must be a unique non-empty string", ik)
				continue
			}
			seen[g.Name] = true
			p.c.Gates = append(p.c.Gates, g)
		}
	case yaml.MappingNode:
		// LumenFlow map form: name → shell string, empty entries dropped, ascending key order.
		var gates []Gate
		for i := 0; i+1 < len(n.Content); i += 2 {
			name, v := n.Content[i].Value, storage.Deref(n.Content[i+1])
			if storage.IsNull(v) {
				continue
			}
			if v.Kind != yaml.ScalarNode || v.ShortTag() != storage.TagStr {
				p.fail(key+"."+name, v, "a string")
				continue
			}
			if v.Value == "" {
				continue
			}
			gates = append(gates, Gate{Name: name, Run: v.Value, DocsOnly: strings.Contains(name, "docs_only"), Timeout: DefaultGateTimeout})
		}
		sort.SliceStable(gates, func(i, j int) bool { return gates[i].Name < gates[j].Name })
		p.c.Gates = gates
	default:
		p.fail(key, n, "a list or a mapping")
	}
}

var durationRe = regexp.MustCompile(DurationPattern)

// ParseDuration parses the spec's DURATION type: <int><unit> with unit s, m, h, d or w.
func ParseDuration(s string) (time.Duration, error) {
	m := durationRe.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("invalid duration %q: expected duration like 30m, 24h or 7d", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: %w", s, err)
	}
	unit := map[string]time.Duration{"s": time.Second, "m": time.Minute, "h": time.Hour, "d": 24 * time.Hour, "w": 7 * 24 * time.Hour}[m[2]]
	if n > int64(math.MaxInt64/unit) {
		return 0, fmt.Errorf("invalid duration %q: longer than %d years", s, int64(math.MaxInt64/(365*24*time.Hour)))
	}
	return time.Duration(n) * unit, nil
}
