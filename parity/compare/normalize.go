package compare

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cmdbridge/cmdbridge/internal/lazyregexp"
)

// Placeholders the normaliser writes in place of volatile values.
const (
	WorkPlaceholder     = "$WORK"
	TimePlaceholder     = "<TIME>"
	IDPlaceholder       = "<ID>"
	DurationPlaceholder = "<DURATION>"
)

// Rule replaces every match of Pattern with Replace in strings, streams and
// file contents.
type Rule struct {
	Name    string
	Pattern *regexp.Regexp
	Replace string
}

// DefaultRules are the volatile-value rules parity applies unless told
// otherwise: RFC 3339 timestamps, generated ids (UUIDs and the corpus's
// prefixed hex ids such as sig-1a2b3c4d and mem-3fa1, spec 2.5) and measured
// durations written as 12ms, 3µs or 1.25s.
func DefaultRules() []Rule { return slices.Clone(defaultRules()) }

// defaultRules compiles the default rules once: a parity call normalises every string of
// every lane's output and files.
var defaultRules = sync.OnceValue(func() []Rule {
	return []Rule{
		{"timestamp", regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})`), TimePlaceholder},
		{"uuid", regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), IDPlaceholder},
		{"prefixed-id", regexp.MustCompile(`\b(?:sig|mem|dlg|evt|ses|inc|rcpt|call|run)-[0-9a-f]{4,16}\b`), IDPlaceholder},
		{"duration", regexp.MustCompile(`\b\d+(?:\.\d+)?(?:ns|µs|us|ms)\b|\b\d+\.\d+s\b`), DurationPlaceholder},
	}
})

// durationKey matches JSON object keys whose numeric values are measured
// durations (duration_ms, elapsed_ms, duration): their values become
// DurationPlaceholder whatever their type.
var durationKey = lazyregexp.New(`(?:^|_)(?:duration|elapsed)(?:_(?:ms|us|ns|s))?$|_ms$`)

// Normalizer rewrites the values that legitimately differ between lanes so
// that what remains can be compared exactly. Work directories (each lane's
// copy and the original workspace, also in their symlink-resolved form)
// become $WORK; then every Rule applies in order.
type Normalizer struct {
	// Work are directories replaced by $WORK.
	Work []string
	// Above are the directories lanes' copies are made in (a copy's parent), replaced by
	// $WORK/.. once the work directories are: a path that leaves a copy by ".." (an
	// input naming "../x", refused as outside the workspace) then reads alike on every
	// lane, as each copy has the workspace's base name in a directory of its own.
	Above []string
	// Rules apply after the $WORK rewrite; nil means DefaultRules.
	Rules []Rule
}

// NewNormalizer returns a Normalizer for these work directories with the
// default rules.
func NewNormalizer(work ...string) Normalizer {
	return Normalizer{Work: work, Rules: DefaultRules()}
}

// dirForm is one spelling of a directory Normalizer rewrites, and what it becomes.
type dirForm struct{ from, to string }

// workForms returns the work directories and their resolved forms, longest
// first so that a directory inside another is replaced whole, then those of the Above
// directories, longest first. The forms of a list of directories are worked out once
// (resolving symlinks costs a stat per path element, and String runs for every string a
// lane leaves).
func (n Normalizer) workForms() []dirForm {
	key := strings.Join(n.Work, "\x00") + "\x01" + strings.Join(n.Above, "\x00")
	workForms.mu.Lock()
	f, ok := workForms.m[key]
	workForms.mu.Unlock()
	if ok {
		return f
	}
	seen := map[string]bool{}
	var out []dirForm
	resolved := true
	forms := func(dirs []string, to string) {
		var group []dirForm
		add := func(p string) {
			p = strings.TrimRight(p, "/")
			if p != "" && !seen[p] {
				seen[p] = true
				group = append(group, dirForm{p, to})
			}
		}
		for _, w := range dirs {
			add(w)
			if r, err := filepath.EvalSymlinks(w); err == nil {
				add(r)
			} else {
				resolved = false
			}
		}
		sort.Slice(group, func(i, j int) bool { return len(group[i].from) > len(group[j].from) })
		out = append(out, group...)
	}
	forms(n.Work, WorkPlaceholder)
	forms(n.Above, WorkPlaceholder+"/..")
	// A directory that does not exist yet has no resolved form: such a list is worked
	// out again next time, when it may.
	if resolved {
		workForms.mu.Lock()
		if len(workForms.m) >= 256 {
			clear(workForms.m) // a long-lived host normalises with new scratch directories
		}
		workForms.m[key] = out
		workForms.mu.Unlock()
	}
	return out
}

// workForms maps a Normalizer's joined Work list to its forms.
var workForms = struct {
	mu sync.Mutex
	m  map[string][]dirForm
}{m: map[string][]dirForm{}}

func (n Normalizer) rules() []Rule {
	if n.Rules == nil {
		return DefaultRules()
	}
	return n.Rules
}

// rulesKey identifies n's rules by what they do (names, patterns, replacements), for
// caches of normalised results.
func (n Normalizer) rulesKey() string {
	var b strings.Builder
	for _, r := range n.rules() {
		b.WriteString(r.Name)
		b.WriteByte(0)
		b.WriteString(r.Pattern.String())
		b.WriteByte(0)
		b.WriteString(r.Replace)
		b.WriteByte(0)
	}
	return b.String()
}

// String normalises one string.
func (n Normalizer) String(s string) string {
	for _, w := range n.workForms() {
		s = strings.ReplaceAll(s, w.from, w.to)
	}
	for _, r := range n.rules() {
		s = r.Pattern.ReplaceAllString(s, r.Replace)
	}
	return s
}

// Bytes normalises a stream or a text file's content.
func (n Normalizer) Bytes(b []byte) []byte { return []byte(n.String(string(b))) }

// JSON returns v as a generic JSON value (objects as map[string]any, numbers
// as json.Number) with every string normalised and duration-valued keys
// replaced by DurationPlaceholder.
func (n Normalizer) JSON(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	return n.walk(generic), nil
}

func (n Normalizer) walk(v any) any {
	switch x := v.(type) {
	case string:
		return n.String(x)
	case []any:
		for i := range x {
			x[i] = n.walk(x[i])
		}
		return x
	case map[string]any:
		for k, e := range x {
			if durationKey.MatchString(k) {
				if _, isObj := e.(map[string]any); !isObj {
					x[k] = DurationPlaceholder
					continue
				}
			}
			x[k] = n.walk(e)
		}
		return x
	}
	return v
}
