package compare

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxContent is the largest file whose content a Tree keeps for unified diffs;
// larger files are compared by hash only.
const maxContent = 1 << 20

// Entry is one file, directory or symlink of a Tree.
type Entry struct {
	// Mode is the permission and type bits (fs.FileMode).
	Mode fs.FileMode
	// Size is the file size in bytes (0 for directories).
	Size int64
	// SHA256 is the hex digest of the (normalised, for text) content.
	SHA256 string
	// Content is the file's content when it is at most 1 MiB, else nil.
	Content []byte
	// Link is a symlink's target.
	Link string
}

// Tree is a snapshot of a directory: slash-separated relative path → entry.
// Raw .git contents and .cmdbridge/ are never part of it; a repository is
// described instead by virtual text entries named ".git:<fact>" (see Snapshot).
type Tree map[string]Entry

// Paths returns the tree's paths, sorted.
func (t Tree) Paths() []string {
	out := make([]string, 0, len(t))
	for p := range t {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// skipDir reports whether a directory name is left out of snapshots: git's
// object store (compared through its facts instead) and cmdbridge's own
// state (evidence, parity results), which differs by design between lanes.
func skipDir(name string) bool { return name == ".git" || name == ".cmdbridge" }

// Snapshot reads dir into a Tree. Regular files keep their content (up to 1
// MiB) and digest; directories and symlinks are entries too, so an added
// empty directory shows. When dir holds a git repository (a .git directory
// or file), these facts are added as text entries, since raw object files
// differ with every timestamp: ".git:HEAD" (the checked-out branch),
// ".git:branches", ".git:log" (subject and changed paths of each commit
// reachable from HEAD, newest first), ".git:status" (porcelain status) and
// ".git:worktrees" (paths of linked worktrees).
func Snapshot(dir string) (Tree, error) { return SnapshotSkip(dir, nil) }

// SnapshotSkip is Snapshot leaving out what skip names (slash-separated paths relative to
// dir; a skipped directory is not entered), as CopyTree's skip does.
func SnapshotSkip(dir string, skip func(rel string) bool) (Tree, error) {
	return SnapshotKnown(dir, skip, nil)
}

// SnapshotKnown is SnapshotSkip, except that a regular file whose slash-separated path is
// in known is not read: its entry has its mode and size, and for digest the string known
// gives it, so two snapshots given the same string agree on the file. For a caller that
// knows the file is the same in both trees it compares (Mirror.Unchanged); the string
// must change whenever the content may have (the git facts cache keys on it).
func SnapshotKnown(dir string, skip func(rel string) bool, known map[string]string) (Tree, error) {
	t := Tree{}
	gitRoot := false
	var skipped []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if skip != nil && skip(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if skipDir(d.Name()) {
			if rel == ".git" {
				gitRoot = true
			}
			if rel != ".git" {
				skipped = append(skipped, rel) // a linked worktree's .git file, a nested repository, state
			}
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		e := Entry{Mode: info.Mode().Type() | info.Mode().Perm()}
		switch {
		case d.IsDir():
		case info.Mode()&fs.ModeSymlink != 0:
			if e.Link, err = os.Readlink(path); err != nil {
				return err
			}
		case info.Mode().IsRegular() && known[rel] != "":
			e.Size, e.SHA256 = info.Size(), known[rel]
		case info.Mode().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			e.Size = int64(len(b))
			sum := sha256.Sum256(b)
			e.SHA256 = hex.EncodeToString(sum[:])
			if len(b) <= maxContent {
				e.Content = b
			}
		}
		t[rel] = e
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	if gitRoot {
		if err := addGitFacts(t, dir, skipped); err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", dir, err)
		}
	}
	return t, nil
}

var gitFacts = []struct {
	name string
	args []string
}{
	{"HEAD", []string{"symbolic-ref", "-q", "--short", "HEAD"}},
	{"branches", []string{"for-each-ref", "--format=%(refname:short)", "refs/heads"}},
	{"log", []string{"log", "--format=commit %s", "--name-status", "HEAD"}},
	{"status", []string{"status", "--porcelain=v1", "--untracked-files=all"}},
	{"worktrees", []string{"worktree", "list", "--porcelain"}},
}

// addGitFacts adds the git facts of dir to t. Running git for them was most of what a
// parity call cost (five processes a snapshot, a snapshot a lane); three are now read
// from .git (readGitFacts), and most calls change nothing: the facts are cached by everything they are computed from (see
// gitStateKey), with dir's own path taken out, so a lane's copy that a call left as it
// was reuses the facts of the workspace it was copied from.
func addGitFacts(t Tree, dir string, skipped []string) error {
	var key string
	if fi, err := os.Stat(filepath.Join(dir, ".git")); err == nil && fi.IsDir() {
		// Only a repository's main worktree holds all of its state: a linked worktree's
		// facts depend on a .git elsewhere, so they are always asked of git.
		if key, err = gitStateKey(t, dir, skipped); err != nil {
			return err
		}
	}
	facts, hit := factsCache.get(key)
	if key == "" || !hit || checkFacts {
		fresh := runGitFacts(dir)
		if hit && !equalFacts(facts, fresh, dir) {
			return fmt.Errorf("git facts cache: a hit differs from git's own answer in %s (key %s)", dir, key)
		}
		facts = fresh
		if key != "" {
			factsCache.put(key, facts.out(dir))
		}
	} else {
		facts = facts.in(dir)
	}
	for _, f := range gitFacts {
		b := facts[f.name]
		sum := sha256.Sum256(b)
		t[".git:"+f.name] = Entry{Mode: 0o644, Size: int64(len(b)), SHA256: hex.EncodeToString(sum[:]), Content: b}
	}
	return nil
}

// factSet is one snapshot's git facts by name.
type factSet map[string][]byte

// runGitFacts returns every fact of dir: read from a main worktree's .git directory
// where that gives git's own answer byte for byte (the checked-out branch, the branches,
// the worktrees), asked of git otherwise (the log and the status, and every fact of a
// linked worktree or of refs git keeps in a reftable).
func runGitFacts(dir string) factSet {
	facts, err := readGitFacts(dir)
	if err != nil {
		return askGit(dir, nil)
	}
	return askGit(dir, facts)
}

// askGit asks git for every fact of dir not already in facts (nil: all of them).
func askGit(dir string, facts factSet) factSet {
	if facts == nil {
		facts = factSet{}
	}
	for _, f := range gitFacts {
		if _, ok := facts[f.name]; ok {
			continue
		}
		// --no-optional-locks: taking a snapshot must not refresh the index. Only
		// these reads pass it; the lanes' own git runs see the host's environment,
		// so a read-only tool that forgot the flag shows up as a changed .git.
		cmd := exec.Command("git", append([]string{"--no-optional-locks"}, f.args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		// A fact git cannot produce (no commit yet, detached HEAD) is recorded as
		// its error text: both lanes must fail the same way.
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(&out, "git %s: %v %s", f.name, err, strings.TrimSpace(stderr.String()))
		}
		if f.name == "worktrees" {
			out = *bytes.NewBuffer(worktreeFacts(out.Bytes()))
		}
		facts[f.name] = out.Bytes()
	}
	return facts
}

// dirMark stands for a snapshot's own directory in cached facts and keys.
var dirMark = []byte("\x00dir\x00")

// out returns the facts with dir replaced by dirMark; in does the reverse.
func (f factSet) out(dir string) factSet { return f.replace([]byte(dir), dirMark) }
func (f factSet) in(dir string) factSet  { return f.replace(dirMark, []byte(dir)) }

func (f factSet) replace(old, new []byte) factSet {
	r := make(factSet, len(f))
	for k, v := range f {
		r[k] = bytes.ReplaceAll(v, old, new)
	}
	return r
}

func equalFacts(cached, fresh factSet, dir string) bool {
	c := cached.in(dir)
	for _, f := range gitFacts {
		if !bytes.Equal(c[f.name], fresh[f.name]) {
			return false
		}
	}
	return true
}

// factsCache holds git facts by state key (each with the snapshot's directory taken out)
// for the life of the process, up to 4,096 sets: a suite reuses facts within one script,
// so old entries are worth little. Setting CMDBRIDGE_PARITY_GITCHECK=1 makes every hit
// also ask git and fail on a difference (checkFacts: a check of the key, for whoever
// changes what the facts are made of).
var (
	factsCache = newBounded(4096, func(factSet) int { return 1 })
	checkFacts = os.Getenv("CMDBRIDGE_PARITY_GITCHECK") == "1"
)

// bounded is a cache for concurrent use, emptied whole when adding a value would take the
// total cost of its values past max.
type bounded[V any] struct {
	mu        sync.Mutex
	m         map[string]V
	cost      func(V) int
	max, used int
	hits      int
}

func newBounded[V any](max int, cost func(V) int) *bounded[V] {
	return &bounded[V]{m: map[string]V{}, cost: cost, max: max}
}

func (c *bounded[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	if ok {
		c.hits++
	}
	return v, ok
}

func (c *bounded[V]) put(key string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.cost(v)
	if c.used+n > c.max {
		clear(c.m)
		c.used = 0
	}
	c.m[key] = v
	c.used += n
}

// hitCount is how many gets were answered.
func (c *bounded[V]) hitCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// gitStateKey digests what git's answers for dir's facts are made of, with dir's own
// path taken out: the working files (t, already read, before the facts are added),
// every file of .git but its object store and reflogs (HEAD, refs, packed-refs, the
// index, config, linked worktrees' records; objects are named by their content and
// reached only through refs, so the refs stand for them), what Snapshot skipped below
// the root, and the git environment and global configuration of this process.
func gitStateKey(t Tree, dir string, skipped []string) (string, error) {
	h := sha256.New()
	mark := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(dir), dirMark) }
	// hashFile adds a file's length and content, the directory's path masked.
	hashFile := func(path string) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		b = mark(b)
		fmt.Fprintf(h, "%d\n", len(b))
		h.Write(b)
		return nil
	}
	for _, p := range t.Paths() {
		e := t[p]
		fmt.Fprintf(h, "t %q %o %s %q\n", p, e.Mode, e.SHA256, mark([]byte(e.Link)))
	}
	gitDir := filepath.Join(dir, ".git")
	oidLen := objectIDLen(gitDir)
	err := filepath.WalkDir(gitDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(gitDir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (rel == "objects" || d.Name() == "logs") {
			return filepath.SkipDir
		}
		if rel == "COMMIT_EDITMSG" {
			// The message of the last commit git made, which only an editing commit
			// reads; a commit made without git (the native lanes') leaves none.
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "g %q %o\n", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			l, err := os.Readlink(path)
			if err != nil {
				return err
			}
			h.Write(mark([]byte(l)))
		case info.Mode().IsRegular() && d.Name() == "index":
			// Every lane's copy of an index differs in its stat data: the key takes
			// what git's answers depend on (indexContent), so that lanes that made
			// the same commit share one set of facts.
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if c, ok := indexContent(b, oidLen); ok {
				fmt.Fprintf(h, "i %d\n", len(c))
				h.Write(c)
				return nil
			}
			return hashFile(path)
		case info.Mode().IsRegular():
			return hashFile(path)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("git state: %w", err)
	}
	// What Snapshot left out of t below the root: linked worktrees' .git files, nested
	// repositories (git lists them as one untracked entry) and cmdbridge state
	// directories, which git does see.
	for _, rel := range skipped {
		root := filepath.Join(dir, rel)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			r, _ := filepath.Rel(dir, path)
			fmt.Fprintf(h, "s %q %v\n", filepath.ToSlash(r), d.Type())
			if filepath.Base(rel) == ".git" {
				if d.IsDir() {
					return filepath.SkipDir // a nested repository: only that it is one
				}
			}
			if d.Type().IsRegular() {
				return hashFile(path)
			}
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("git state: %w", err)
		}
	}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			fmt.Fprintf(h, "e %q\n", kv)
		}
	}
	for _, cfg := range globalGitConfigs() {
		if b, err := os.ReadFile(cfg); err == nil {
			fmt.Fprintf(h, "c %q %d\n", cfg, len(b))
			h.Write(b)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// globalGitConfigs names the configuration files git reads beside the repository's own
// (the system file is not read: the facts run with GIT_CONFIG_NOSYSTEM).
func globalGitConfigs() []string {
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		return []string{g}
	}
	var out []string
	if home := os.Getenv("HOME"); home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"))
	}
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && os.Getenv("HOME") != "" {
		xdg = filepath.Join(os.Getenv("HOME"), ".config")
	}
	if xdg != "" {
		out = append(out, filepath.Join(xdg, "git", "config"))
	}
	return out
}

// worktreeFacts keeps the worktree and branch lines of `git worktree list
// --porcelain`: HEAD SHAs depend on commit times, which the log compares by
// subject instead.
func worktreeFacts(b []byte) []byte {
	var out bytes.Buffer
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "worktree ") || strings.HasPrefix(line, "branch ") {
			out.WriteString(line + "\n")
		}
	}
	return out.Bytes()
}

// Normalize returns a copy of t with every text content (valid UTF-8, no
// NUL byte) rewritten by n, its size and digest recomputed. Binary content
// is kept as is.
//
// A parity call normalises the same unchanged files once per lane and call, so the
// result for a content that holds none of n's work directories (it then depends only on
// the content and the rules) is kept by the content's digest and rules, and looked up
// instead of recomputed.
func (t Tree) Normalize(n Normalizer) Tree {
	out := make(Tree, len(t))
	forms := n.workForms()
	rules := n.rulesKey()
	for p, e := range t {
		if e.Content != nil {
			e = normalizeEntry(e, n, forms, rules)
		}
		if e.Link != "" {
			e.Link = n.String(e.Link)
		}
		out[p] = e
	}
	return out
}

// normalizeEntry normalises a file entry's content (text only), through the cache when
// its result cannot depend on the work directories.
func normalizeEntry(e Entry, n Normalizer, forms []dirForm, rules string) Entry {
	for _, w := range forms {
		if bytes.Contains(e.Content, []byte(w.from)) {
			return normalizeContent(e, n)
		}
	}
	key := rules + "\x00" + e.SHA256
	c, ok := normalized.get(key)
	if !ok {
		c = normalizeContent(e, n)
		normalized.put(key, c)
	}
	// Only the content is shared: the mode is this file's own.
	e.Content, e.Size, e.SHA256 = c.Content, c.Size, c.SHA256
	return e
}

func normalizeContent(e Entry, n Normalizer) Entry {
	if !isText(e.Content) {
		return e
	}
	c := n.Bytes(e.Content)
	if !bytes.Equal(c, e.Content) {
		sum := sha256.Sum256(c)
		e.Content, e.Size, e.SHA256 = c, int64(len(c)), hex.EncodeToString(sum[:])
	}
	return e
}

// normalized holds normalised entries by rules and raw digest, for the life of the
// process, up to 64 MiB of content (emptied when full: a suite reuses what one script's
// calls normalise).
var normalized = newBounded(64<<20, func(e Entry) int { return len(e.Content) })

func isText(b []byte) bool { return utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 }

// CompareTrees returns the differences between two trees, reference first:
// files only in a (removed), only in b (added), of another type or mode, and
// changed content (with a unified diff for text). Lanes is left empty for
// the caller to fill.
func CompareTrees(a, b Tree) []Diff {
	paths := map[string]bool{}
	for p := range a {
		paths[p] = true
	}
	for p := range b {
		paths[p] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var out []Diff
	for _, p := range sorted {
		ea, inA := a[p]
		eb, inB := b[p]
		d := Diff{Kind: KindTree, Path: p}
		switch {
		case !inB:
			d.Want, d.Got = describe(ea), "(absent)"
		case !inA:
			d.Want, d.Got = "(absent)", describe(eb)
		case ea.Mode != eb.Mode:
			d.Want, d.Got = describe(ea), describe(eb)
		case ea.Link != eb.Link:
			d.Want, d.Got = "-> "+ea.Link, "-> "+eb.Link
		case ea.SHA256 != eb.SHA256:
			if ea.Content != nil && eb.Content != nil && isText(ea.Content) && isText(eb.Content) {
				d.Unified = Unified("want/"+p, ea.Content, "got/"+p, eb.Content)
			} else {
				d.Want, d.Got = describe(ea), describe(eb)
			}
		default:
			continue
		}
		out = append(out, d)
	}
	return out
}

// describe renders an entry on one line: mode, size and short digest.
func describe(e Entry) string {
	switch {
	case e.Mode.IsDir():
		return fmt.Sprintf("%v directory", e.Mode)
	case e.Mode&fs.ModeSymlink != 0:
		return fmt.Sprintf("symlink -> %s", e.Link)
	}
	if e.Content != nil && isText(e.Content) && len(e.Content) <= 80 && !bytes.Contains(e.Content, []byte("\n")) {
		return fmt.Sprintf("%v %d bytes %q", e.Mode, e.Size, e.Content)
	}
	return fmt.Sprintf("%v %d bytes sha256:%.12s", e.Mode, e.Size, e.SHA256)
}

// Changes summarises how after differs from before as sorted lines "A
// path", "D path", "M path" (content, mode or type changed). Of the virtual
// .git facts, status is left out (it restates the file changes); a changed
// .git:log says the call committed.
func Changes(before, after Tree) []string {
	out := []string{}
	for _, d := range CompareTrees(before, after) {
		if d.Path == ".git:status" {
			continue
		}
		switch {
		case d.Want == "(absent)":
			out = append(out, "A "+d.Path)
		case d.Got == "(absent)":
			out = append(out, "D "+d.Path)
		default:
			out = append(out, "M "+d.Path)
		}
	}
	return out
}

// objectIDLen is the length in bytes of the object ids of the repository in gitDir: 32
// when its configuration names the SHA-256 object format, else 20 (SHA-1).
func objectIDLen(gitDir string) int {
	b, _ := os.ReadFile(filepath.Join(gitDir, "config"))
	for line := range strings.Lines(string(b)) {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "objectformat") && strings.EqualFold(strings.TrimSpace(v), "sha256") {
			return 32
		}
	}
	return 20
}
