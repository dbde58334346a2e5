package gitcommit

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// Unsupported says why a repository, its environment or a request needs git itself.
// It is returned before anything but loose objects has been written.
type Unsupported struct{ Reason string }

func (u *Unsupported) Error() string { return "in-process commit unsupported: " + u.Reason }

func unsupported(format string, args ...any) error {
	return &Unsupported{Reason: fmt.Sprintf(format, args...)}
}

// IsUnsupported reports whether err is an *Unsupported, and its reason.
func IsUnsupported(err error) (string, bool) {
	var u *Unsupported
	if errors.As(err, &u) {
		return u.Reason, true
	}
	return "", false
}

// GitError is a failure git would have reported, in git's words (a lock that exists,
// a ref that moved).
type GitError struct{ Op, Msg string }

func (e *GitError) Error() string { return "git " + e.Op + ": " + e.Msg }

// Ident is a name and an e-mail address.
type Ident struct{ Name, Email string }

// Repo is one work tree's repository, its configuration and environment read and found
// to hold nothing this package does not reproduce.
type Repo struct {
	top, gitDir, commonDir string
	env                    envMap
	cfg                    *config
	objs                   *objects
	branch                 string
	logRefs, logAll        bool
	hooksDir               string
	cache                  *Cache
}

// UseCache makes r's commits keep what they read in c for later commits (see Cache),
// and returns r.
func (r *Repo) UseCache(c *Cache) *Repo {
	r.cache, r.objs.cache = c, c
	return r
}

// Open reads the repository whose work tree top is dir, in the environment git would
// run in (nil: none). It returns *Unsupported when the repository, its configuration
// or environ needs git.
func Open(dir string, environ []string) (*Repo, error) {
	env := newEnvMap(environ)
	if err := checkEnv(env); err != nil {
		return nil, err
	}
	r := &Repo{top: dir, env: env}
	dotgit := filepath.Join(dir, ".git")
	st, err := os.Lstat(dotgit)
	switch {
	case err != nil:
		return nil, unsupported("%s has no .git", dir)
	case st.IsDir():
		r.gitDir, r.commonDir = dotgit, dotgit
		if _, err := os.Lstat(filepath.Join(dotgit, "commondir")); err == nil {
			return nil, unsupported(".git has a commondir file")
		}
	case st.Mode().IsRegular():
		b, err := os.ReadFile(dotgit)
		if err != nil {
			return nil, err
		}
		gd, ok := strings.CutPrefix(strings.TrimRight(string(b), "\r\n"), "gitdir: ")
		if !ok {
			return nil, unsupported(".git file without gitdir")
		}
		if !filepath.IsAbs(gd) {
			gd = filepath.Join(dir, gd)
		}
		r.gitDir, r.commonDir = gd, gd
		if b, err := os.ReadFile(filepath.Join(gd, "commondir")); err == nil {
			cd := strings.TrimRight(string(b), "\r\n")
			if !filepath.IsAbs(cd) {
				cd = filepath.Join(gd, cd)
			}
			r.commonDir = filepath.Clean(cd)
		}
	default:
		return nil, unsupported(".git is neither a directory nor a file")
	}
	for _, d := range []string{dir, r.gitDir} {
		if st, err := os.Stat(d); err != nil {
			return nil, unsupported("%v", err)
		} else if s, ok := st.Sys().(*syscall.Stat_t); !ok || int(s.Uid) != os.Geteuid() {
			return nil, unsupported("%s is owned by another user (safe.directory)", d)
		}
	}
	if _, err := os.Lstat(filepath.Join(r.commonDir, "objects", "info", "alternates")); err == nil {
		return nil, unsupported("alternates")
	}
	if r.cfg, err = readConfig(env, r.commonDir, r.gitDir); err != nil {
		return nil, err
	}
	if err := r.checkConfig(); err != nil {
		return nil, err
	}
	if r.branch, err = headBranch(r.gitDir); err != nil {
		return nil, err
	}
	if err := r.checkHooks(); err != nil {
		return nil, err
	}
	// Loose objects: core.looseCompression, else core.compression, else 1 (git's
	// default: best speed). The level changes the file, never the object or its name.
	level := int64(1)
	for _, k := range []string{"core.compression", "core.loosecompression"} {
		if v, ok := r.cfg.integer(k, level); ok && v >= -1 && v <= 9 {
			level = v
		}
	}
	r.objs = newObjects(r.commonDir, int(level))
	return r, nil
}

// checkConfig rules out the settings that change what git writes.
func (r *Repo) checkConfig() error {
	c := r.cfg
	if v, ok := c.integer("core.repositoryformatversion", 0); !ok || v > 1 {
		return unsupported("core.repositoryformatversion")
	}
	for k := range c.values {
		if strings.HasPrefix(k, "extensions.") && k != "extensions.worktreeconfig" {
			return unsupported("the repository extension %s", strings.TrimPrefix(k, "extensions."))
		}
		if strings.HasPrefix(k, "hook.") {
			return unsupported("hooks configured by %s", k)
		}
		if strings.HasPrefix(k, "author.") || strings.HasPrefix(k, "committer.") {
			return unsupported("%s", k)
		}
	}
	for key, want := range map[string]bool{
		"core.bare": false, "core.filemode": true, "core.symlinks": true, "core.ignorecase": false,
		"core.precomposeunicode": false, "core.sparsecheckout": false, "core.splitindex": false,
		"index.skiphash": false, "index.sparse": false, "feature.manyfiles": false,
	} {
		if v, ok := c.boolean(key, want); !ok || v != want {
			return unsupported("%s", key)
		}
	}
	for _, key := range []string{"core.worktree", "core.autocrlf", "core.eol", "core.fsmonitor", "core.sharedrepository",
		"index.version", "commit.cleanup", "core.attributesfile"} {
		if v, ok := c.get(key); ok {
			if b, isBool := c.boolean(key, false); !isBool || b || key == "index.version" || key == "commit.cleanup" || key == "core.worktree" {
				return unsupported("%s=%s", key, v)
			}
		}
	}
	if v, ok := c.get("i18n.commitencoding"); ok && !strings.EqualFold(v, "utf-8") && !strings.EqualFold(v, "utf8") {
		return unsupported("i18n.commitEncoding=%s", v)
	}
	for _, f := range []string{filepath.Join(r.commonDir, "info", "attributes"), r.xdgFile("attributes")} {
		if f == "" {
			continue
		}
		if _, err := os.Stat(f); err == nil {
			return unsupported("attributes in %s", f)
		}
	}
	logs, ok := c.get("core.logallrefupdates")
	switch {
	case !ok:
		r.logRefs, r.logAll = true, true
	case strings.EqualFold(logs, "always"):
		r.logRefs, r.logAll = true, true
	default:
		b, valid := c.boolean("core.logallrefupdates", true)
		if !valid {
			return unsupported("core.logAllRefUpdates=%s", logs)
		}
		r.logRefs, r.logAll = true, b
	}
	return nil
}

// xdgFile is $XDG_CONFIG_HOME/git/name (or $HOME/.config/git/name), "" when neither is
// set.
func (r *Repo) xdgFile(name string) string {
	xdg, _ := r.env.get("XDG_CONFIG_HOME")
	if xdg == "" {
		home, _ := r.env.get("HOME")
		if home == "" {
			return ""
		}
		xdg = filepath.Join(home, ".config")
	}
	return filepath.Join(xdg, "git", name)
}

// noVerifyHooks are the hooks git commit --no-verify still runs.
var noVerifyHooks = []string{"prepare-commit-msg", "post-commit", "post-index-change", "reference-transaction"}

func (r *Repo) checkHooks() error {
	dir := filepath.Join(r.commonDir, "hooks")
	if v, ok := r.cfg.get("core.hookspath"); ok {
		dir = v
		if strings.HasPrefix(dir, "~/") {
			home, _ := r.env.get("HOME")
			dir = filepath.Join(home, dir[2:])
		} else if !filepath.IsAbs(dir) {
			dir = filepath.Join(r.top, dir)
		}
	}
	r.hooksDir = dir
	for _, h := range noVerifyHooks {
		if st, err := os.Stat(filepath.Join(dir, h)); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return unsupported("the %s hook", h)
		}
	}
	return nil
}

// Request is one commit.
type Request struct {
	// Paths are the paths to commit, relative to the work tree top, slash-separated, as
	// given to git add and git commit.
	Paths []string
	// Message is the -m message (cleaned up as git does).
	Message string
	// Default is the identity given with -c user.name/-c user.email when the
	// configuration has no user.email ("" Email: none; an unset user.email is then
	// Unsupported).
	Default Ident
	// Date, when not empty, is both dates (GIT_AUTHOR_DATE and GIT_COMMITTER_DATE), an
	// RFC 3339 instant.
	Date string
	// Now is the clock for dates the request and the environment leave unset (nil:
	// time.Now).
	Now func() time.Time
}

// Plan is a prepared commit: the paths checked and their new index entries computed.
type Plan struct {
	r       *Repo
	req     Request
	keep    []string
	parent  [20]byte
	changes map[string]*entry // nil: removed
	author  string
	commit  string
	msg     []byte
	// idx is the index as last read or written here, idxStamp its file's identity then.
	idx      *index
	idxStamp string
}

// indexStamp identifies the index file's content: its size and its trailing checksum
// (the SHA-1 of everything before it). Stat data would not do: writers replace the
// file within one tick of a coarse clock, and inode numbers are reused.
func indexStamp(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() < 20 {
		return ""
	}
	var sum [20]byte
	if _, err := f.ReadAt(sum[:], st.Size()-20); err != nil {
		return ""
	}
	return stampOf(st.Size(), sum[:])
}

func stampOf(size int64, sum []byte) string { return fmt.Sprintf("%d %x", size, sum) }

// Keep are the request's paths that git add would see: on disk or in HEAD.
func (p *Plan) Keep() []string { return p.keep }

// Prepare checks the request against the repository and computes the new entries, the
// identity and the message. Nothing is written but blob objects. It returns
// *Unsupported for what needs git.
func (r *Repo) Prepare(req Request) (*Plan, error) {
	p := &Plan{r: r, req: req, changes: map[string]*entry{}}
	var ok bool
	var err error
	if p.parent, ok, err = readRef(r.commonDir, r.branch); err != nil {
		return nil, err
	} else if !ok {
		return nil, unsupported("an unborn branch")
	}
	headTree, err := r.commitTree(p.parent)
	if err != nil {
		return nil, unsupported("HEAD: %v", err)
	}
	if err := p.identity(); err != nil {
		return nil, err
	}
	p.msg = cleanMessage(req.Message)
	if len(p.msg) == 0 {
		return nil, unsupported("an empty message")
	}
	if !utf8.Valid(p.msg) {
		return nil, unsupported("a message that is not UTF-8")
	}
	indexPath := filepath.Join(r.gitDir, "index")
	idx, stamp, err := readIndex(r.cache, indexPath)
	if err != nil {
		return nil, err
	}
	p.idx, p.idxStamp = idx, stamp
	for _, e := range idx.entries {
		if e.stage != 0 {
			return nil, unsupported("unmerged paths")
		}
	}
	seen := map[string]bool{}
	var ign *ignorer
	for _, name := range req.Paths {
		if seen[name] {
			continue
		}
		seen[name] = true
		if !validPath(name) {
			return nil, unsupported("the path %q", name)
		}
		if err := r.checkParents(name, idx); err != nil {
			return nil, err
		}
		full := filepath.Join(r.top, filepath.FromSlash(name))
		var st unix.Stat_t
		statErr := unix.Lstat(full, &st)
		i, inIndex := idx.find(name)
		if inIndex {
			if e := idx.entries[i]; e.flags&flagAssume != 0 || e.ext&(extSkipWT|extITA) != 0 {
				return nil, unsupported("%s is assume-unchanged, skip-worktree or intent-to-add", name)
			}
		}
		if statErr != nil {
			if !errors.Is(statErr, unix.ENOENT) {
				return nil, unsupported("%s: %v", name, statErr)
			}
			if _, inHead, err := r.lookup(headTree, name); err != nil {
				return nil, unsupported("HEAD: %v", err)
			} else if !inHead {
				continue // neither on disk nor in HEAD: git add never sees it
			}
			if !inIndex {
				return nil, unsupported("%s is only in HEAD", name)
			}
			p.keep = append(p.keep, name)
			p.changes[name] = nil
			continue
		}
		p.keep = append(p.keep, name)
		var mode uint32
		var content []byte
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFREG:
			mode = modeFile
			if st.Mode&0o100 != 0 {
				mode = modeExec
			}
			if content, err = os.ReadFile(full); err != nil {
				return nil, err
			}
		case unix.S_IFLNK:
			mode = modeSymlink
			target, err := os.Readlink(full)
			if err != nil {
				return nil, err
			}
			content = []byte(target)
		default:
			return nil, unsupported("%s is not a regular file or a symbolic link", name)
		}
		if !inIndex {
			if ign == nil {
				ign = r.newIgnorer()
			}
			if ign.ignored(name) {
				return nil, unsupported("%s is a new, ignored file", name)
			}
		}
		if err := r.checkAttributes(name); err != nil {
			return nil, err
		}
		h, err := r.objs.write("blob", content)
		if err != nil {
			return nil, err
		}
		p.changes[name] = newEntry(name, &st, mode, h)
	}
	return p, nil
}

// validPath is a path git add takes as it is: relative, clean, slash-separated, not
// into .git.
func validPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || path.Clean(p) != p || p == "." ||
		strings.HasPrefix(p, "../") || p == ".." || strings.ContainsAny(p, "\\\x00") {
		return false
	}
	for _, c := range strings.Split(p, "/") {
		if strings.EqualFold(c, ".git") {
			return false
		}
	}
	return true
}

// checkParents refuses a path beyond a symbolic link, inside a submodule or a nested
// repository, or under a file the index tracks.
func (r *Repo) checkParents(name string, idx *index) error {
	dirs := strings.Split(name, "/")
	for i := 1; i < len(dirs); i++ {
		prefix := strings.Join(dirs[:i], "/")
		if _, ok := idx.find(prefix); ok {
			return unsupported("%s is under the tracked %s", name, prefix)
		}
		full := filepath.Join(r.top, filepath.FromSlash(prefix))
		st, err := os.Lstat(full)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || !st.IsDir() {
			return unsupported("%s is beyond %s, not a directory", name, prefix)
		}
		if _, err := os.Lstat(filepath.Join(full, ".git")); err == nil {
			return unsupported("%s is inside the repository %s", name, prefix)
		}
	}
	return nil
}

// checkAttributes refuses a path that a .gitattributes file could apply to.
func (r *Repo) checkAttributes(name string) error {
	dirs := strings.Split(name, "/")
	for i := 0; i < len(dirs); i++ {
		f := filepath.Join(r.top, filepath.FromSlash(strings.Join(dirs[:i], "/")), ".gitattributes")
		if _, err := os.Lstat(f); err == nil {
			return unsupported("attributes in %s", f)
		}
	}
	return nil
}

// commitTree is the tree a commit names.
func (r *Repo) commitTree(h [20]byte) ([20]byte, error) {
	var t [20]byte
	typ, b, err := r.objs.read(h)
	if err != nil {
		return t, err
	}
	if typ != "commit" || !bytes.HasPrefix(b, []byte("tree ")) || len(b) < 45 {
		return t, fmt.Errorf("%x is not a commit", h)
	}
	if _, err := hex.Decode(t[:], b[5:45]); err != nil {
		return t, err
	}
	return t, nil
}

// readTree returns the entries of tree h, shared: the caller must not change them.
func (r *Repo) readTree(h [20]byte) ([]treeEntry, error) {
	if t, ok := cachedTree(h); ok {
		return t, nil
	}
	typ, b, err := r.objs.read(h)
	if err != nil {
		return nil, err
	}
	if typ != "tree" {
		return nil, fmt.Errorf("%x is a %s, not a tree", h, typ)
	}
	t, err := parseTree(b)
	if err != nil {
		return nil, err
	}
	keepTree(h, t, len(b))
	return t, nil
}

// lookup finds name in the tree.
func (r *Repo) lookup(tree [20]byte, name string) (treeEntry, bool, error) {
	parts := strings.Split(name, "/")
	for i, part := range parts {
		entries, err := r.readTree(tree)
		if err != nil {
			return treeEntry{}, false, err
		}
		found := false
		for _, e := range entries {
			if e.name == part {
				if i == len(parts)-1 {
					return e, true, nil
				}
				if !e.isDir() {
					return treeEntry{}, false, nil
				}
				tree, found = e.hash, true
				break
			}
		}
		if !found {
			return treeEntry{}, false, nil
		}
	}
	return treeEntry{}, false, nil
}

// Stage is `git add -A -- keep`: the index gets the new entries, under index.lock. It
// reports whether any kept path now differs from HEAD (`git diff --cached --quiet`
// exiting 1).
func (p *Plan) Stage() (bool, error) {
	if err := p.writeIndex(); err != nil {
		return false, err
	}
	headTree, err := p.r.commitTree(p.parent)
	if err != nil {
		return false, err
	}
	for _, name := range p.keep {
		e := p.changes[name]
		te, inHead, err := p.r.lookup(headTree, name)
		if err != nil {
			return false, err
		}
		if e == nil && inHead || e != nil && (!inHead || te.isDir() || canonMode(e.mode) != canonMode(te.mode) || e.hash != te.hash) {
			return true, nil
		}
	}
	return false, nil
}

// writeIndex is `git add`'s index update: the plan's entries applied to the index
// under index.lock.
func (p *Plan) writeIndex() error {
	f, err := lockFile(p.indexPath(), "add")
	if err != nil {
		return err
	}
	return p.finishIndex(f, false)
}

func (p *Plan) indexPath() string { return filepath.Join(p.r.gitDir, "index") }

// finishIndex applies the plan's entries to the index as it is now (reading it again
// only when another writer replaced it) and commits the held lock f. When again is set
// and the index is still the one Stage wrote, it already holds them: the lock is
// released and nothing is written.
func (p *Plan) finishIndex(f *os.File, again bool) error {
	path := p.indexPath()
	fail := func(err error) error {
		f.Close()
		os.Remove(path + ".lock")
		return err
	}
	idx := p.idx
	var err error
	if stamp := indexStamp(path); stamp == "" || stamp != p.idxStamp {
		if idx, _, err = readIndex(p.r.cache, path); err != nil {
			return fail(err)
		}
	} else if again {
		return fail(nil)
	} else {
		idx = idx.clone() // p.idx may be the one the cache holds
	}
	for _, name := range p.keep {
		idx.set(name, p.changes[name])
	}
	buf := buffers.Get().(*bytes.Buffer)
	defer buffers.Put(buf)
	buf.Reset()
	b := idx.encode(buf, p.keep)
	if _, err := f.Write(b); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(path+".lock", path); err != nil {
		return fail(err)
	}
	idx.size = int64(len(b))
	copy(idx.sum[:], b[len(b)-20:])
	p.idx, p.idxStamp = idx, stampOf(idx.size, idx.sum[:])
	p.r.cache.put(path, p.idxStamp, idx)
	return nil
}

// Commit is `git commit --no-verify -q -m message -- keep` after Stage: under
// index.lock, held throughout as git holds it, the commit of HEAD's tree with the kept
// paths as staged, the branch moved under its own lock with the reflogs appended, then
// the index as git commit leaves it. It returns the new commit's name.
func (p *Plan) Commit(ctx context.Context) ([20]byte, error) {
	var h [20]byte
	f, err := lockFile(p.indexPath(), "commit")
	if err != nil {
		return h, err
	}
	release := func(err error) ([20]byte, error) {
		f.Close()
		os.Remove(p.indexPath() + ".lock")
		return h, err
	}
	// The branch as it is now: a committer that moved it since Prepare (git, another
	// process) did so under index.lock, which this one now holds until its ref is
	// updated, so it cannot move again before.
	parent, ok, err := readRef(p.r.commonDir, p.r.branch)
	if err != nil {
		return release(err)
	} else if !ok {
		return release(&GitError{Op: "commit", Msg: "fatal: " + p.r.branch + " disappeared"})
	}
	p.parent = parent
	headTree, err := p.r.commitTree(p.parent)
	if err != nil {
		return release(err)
	}
	tree, err := p.r.applyTree(headTree, "", p.changes)
	if err != nil {
		return release(err)
	}
	var body bytes.Buffer
	fmt.Fprintf(&body, "tree %x\nparent %x\nauthor %s\ncommitter %s\n\n", tree, p.parent, p.author, p.commit)
	body.Write(p.msg)
	if h, err = p.r.objs.write("commit", body.Bytes()); err != nil {
		return release(err)
	}
	subject, _, _ := bytes.Cut(p.msg, []byte("\n"))
	if err := p.r.updateRef(p.r.branch, p.parent, h, p.commit, reflogMessage("commit: "+string(subject))); err != nil {
		return release(err)
	}
	if err := p.finishIndex(f, true); err != nil {
		return h, err
	}
	p.r.autoMaintenance(ctx)
	return h, nil
}

// applyTree writes the tree that is tree with changes (paths under prefix) applied,
// and returns its name; the empty tree of a directory left empty is the zero name.
func (r *Repo) applyTree(tree [20]byte, prefix string, changes map[string]*entry) ([20]byte, error) {
	var entries []treeEntry
	if tree != ([20]byte{}) {
		var err error
		if entries, err = r.readTree(tree); err != nil {
			return tree, err
		}
	}
	direct := map[string]*entry{}
	sub := map[string]map[string]*entry{}
	for name, e := range changes {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		if first, tail, nested := strings.Cut(rest, "/"); nested {
			if sub[first] == nil {
				sub[first] = map[string]*entry{}
			}
			sub[first][prefix+first+"/"+tail] = e
		} else {
			direct[rest] = e
		}
	}
	out := entries[:0:0]
	done := map[string]bool{}
	for _, te := range entries {
		if e, ok := direct[te.name]; ok {
			done[te.name] = true
			if e != nil {
				out = append(out, treeEntry{mode: e.mode, name: te.name, hash: e.hash})
			}
			continue
		}
		if changes, ok := sub[te.name]; ok && te.isDir() {
			done[te.name] = true
			h, err := r.applyTree(te.hash, prefix+te.name+"/", changes)
			if err != nil {
				return h, err
			}
			if h != ([20]byte{}) {
				out = append(out, treeEntry{mode: modeDir, name: te.name, hash: h})
			}
			continue
		}
		if _, ok := sub[te.name]; ok {
			return tree, unsupported("%s%s changes from a file to a directory", prefix, te.name)
		}
		out = append(out, te)
	}
	for name, e := range direct {
		if !done[name] && e != nil {
			out = append(out, treeEntry{mode: e.mode, name: name, hash: e.hash})
		}
	}
	for name, changes := range sub {
		if done[name] {
			continue
		}
		h, err := r.applyTree([20]byte{}, prefix+name+"/", changes)
		if err != nil {
			return h, err
		}
		if h != ([20]byte{}) {
			out = append(out, treeEntry{mode: modeDir, name: name, hash: h})
		}
	}
	if len(out) == 0 && prefix != "" {
		return [20]byte{}, nil
	}
	b := encodeTree(out)
	h, err := r.objs.write("tree", b)
	if err == nil {
		keepTree(h, out, len(b)) // encodeTree sorted out as the tree lists them
	}
	return h, err
}

// identity resolves author and committer as git would for this request.
func (p *Plan) identity() error {
	c := p.r.cfg
	email, _ := c.get("user.email")
	name, hasName := c.get("user.name")
	if strings.TrimSpace(email) == "" {
		if p.req.Default.Email == "" {
			return unsupported("no user.email")
		}
		name, email, hasName = p.req.Default.Name, p.req.Default.Email, true
	}
	if !hasName {
		return unsupported("user.email without user.name (git asks the password file)")
	}
	for _, s := range []string{name, email} {
		if s == "" || s != strings.Trim(s, " \t\n\r\v\f.,:;<>\"\\'") || strings.ContainsAny(s, "<>\n") {
			return unsupported("an identity git would clean up (%q)", s)
		}
	}
	date := func(v string) (string, error) {
		if p.req.Date != "" {
			v = p.req.Date
		}
		if v == "" {
			now := time.Now
			if p.req.Now != nil {
				now = p.req.Now
			}
			loc, err := p.r.location()
			if err != nil {
				return "", err
			}
			return gitDate(now().In(loc)), nil
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return "", unsupported("the date %q", v)
		}
		return gitDate(t), nil
	}
	ad, _ := p.r.env.get("GIT_AUTHOR_DATE")
	cd, _ := p.r.env.get("GIT_COMMITTER_DATE")
	a, err := date(ad)
	if err != nil {
		return err
	}
	cm, err := date(cd)
	if err != nil {
		return err
	}
	p.author = fmt.Sprintf("%s <%s> %s", name, email, a)
	p.commit = fmt.Sprintf("%s <%s> %s", name, email, cm)
	return nil
}

// location is the time zone git would use: TZ from its environment, else the
// system's.
func (r *Repo) location() (*time.Location, error) {
	tz, ok := r.env.get("TZ")
	if !ok {
		b, err := os.ReadFile("/etc/localtime")
		if err != nil {
			return time.UTC, nil
		}
		return time.LoadLocationFromTZData("", b)
	}
	if tz == "" || tz == "UTC" || tz == "UTC0" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(strings.TrimPrefix(tz, ":"))
	if err != nil {
		return nil, unsupported("TZ=%s", tz)
	}
	return loc, nil
}

func gitDate(t time.Time) string {
	_, off := t.Zone()
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%d %c%02d%02d", t.Unix(), sign, off/3600, off%3600/60)
}

// cleanMessage is git's whitespace clean-up of a -m message: trailing space removed
// from each line, runs of empty lines made one, leading and trailing empty lines
// removed, a final newline.
func cleanMessage(msg string) []byte {
	var out bytes.Buffer
	empty := 0
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimRight(line, " \t\n\r\v\f")
		if line == "" {
			empty++
			continue
		}
		if empty > 0 && out.Len() > 0 {
			out.WriteByte('\n')
		}
		empty = 0
		out.WriteString(line)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// autoMaintenance runs `git maintenance run --auto` when git commit would: unless
// maintenance.auto or gc.auto say no, when objects/17 holds more than gc.auto/256 loose
// objects or objects/pack more than gc.autoPackLimit packs.
func (r *Repo) autoMaintenance(ctx context.Context) {
	if on, _ := r.cfg.boolean("maintenance.auto", true); !on {
		return
	}
	limit, _ := r.cfg.integer("gc.auto", 6700)
	packLimit, _ := r.cfg.integer("gc.autopacklimit", 50)
	if limit <= 0 {
		return
	}
	due := false
	if ents, err := os.ReadDir(filepath.Join(r.commonDir, "objects", "17")); err == nil {
		n := 0
		for _, e := range ents {
			if len(e.Name()) == 38 {
				n++
			}
		}
		due = n > int((limit+255)/256)
	}
	if !due && packLimit > 0 {
		if ents, err := os.ReadDir(filepath.Join(r.commonDir, "objects", "pack")); err == nil {
			n := 0
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), ".pack") {
					n++
				}
			}
			due = n > int(packLimit)
		}
	}
	if !due {
		return
	}
	cmd := exec.CommandContext(ctx, "git", "maintenance", "run", "--auto", "--quiet")
	cmd.Dir = r.top
	cmd.Env = envList(r.env)
	_ = cmd.Run()
}

func envList(m envMap) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}
