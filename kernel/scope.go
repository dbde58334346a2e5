package kernel

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cmdbridge/cmdbridge/kernel/lane"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WorkspaceCaller is a caller that may read and write the whole workspace (a local
// user at a terminal).
func WorkspaceCaller(subject string) Caller {
	return Caller{Subject: subject, Read: []string{"."}, Write: []string{"."}}
}

// resolvePath makes p absolute against base and resolves it as the system resolves a
// path it opens: component by component, each symbolic link (a dangling one too)
// replaced by where it points, and ".." taken from where the walk has got to — so
// "link/../x" climbs from the link's target, not from the link's own directory, which
// a lexical clean would wrongly keep in scope. From the first component that does not
// exist, the rest is joined lexically: a program creating it makes real directories.
func resolvePath(base, p string) string {
	r, _ := resolveLinks(base, p)
	return r
}

// resolveLinks is resolvePath, and false when the path holds more links than the
// system's lookup follows (a loop): the place it names is then not known.
func resolveLinks(base, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = base + string(filepath.Separator) + p
	}
	if !filepath.IsAbs(p) {
		// base should be absolute (the kernel's is); walked from the root, a relative
		// one would name the root itself.
		wd, err := os.Getwd()
		if err != nil {
			return p, false
		}
		p = wd + string(filepath.Separator) + p
	}
	links := maxLinks
	r := walkPath(string(filepath.Separator), p, &links)
	return r, links >= 0
}

// maxLinks bounds the links one resolution follows, in all, as the system's own
// lookup does (past it, the rest is left as written, and the system's open fails).
const maxLinks = 40

// walkPath resolves the components of p from dir, an absolute path already resolved;
// links is what is left of the resolution's budget of links.
func walkPath(dir, p string, links *int) string {
	parts := strings.Split(p, string(filepath.Separator))
	for i, name := range parts {
		switch name {
		case "", ".":
			continue
		case "..":
			dir = filepath.Dir(dir)
			continue
		}
		next := filepath.Join(dir, name)
		rest := func() string { return filepath.Join(append([]string{next}, parts[i+1:]...)...) }
		fi, err := os.Lstat(next)
		if err != nil {
			return rest()
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			dir = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			return rest()
		}
		if *links--; *links < 0 {
			return rest()
		}
		if filepath.IsAbs(target) {
			dir = walkPath(string(filepath.Separator), target, links)
		} else {
			dir = walkPath(dir, target, links)
		}
	}
	return dir
}

func within(p, dir string) bool {
	return p == dir || dir == string(filepath.Separator) || strings.HasPrefix(p, dir+string(filepath.Separator))
}

func withinAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if within(p, d) {
			return true
		}
	}
	return false
}

// scopeCheck enforces the caller's scopes (resolved: callerScopes) on one call. It
// returns the resolved write paths (for the path locks) or a SCOPE_DENIED output. effect
// is the call's effect (Spec.EffectOf of its input): a writer's read-only mode (a dry
// run, a check) needs only a read scope on the workspace, as the policy treats it as a
// read.
func (k *Kernel) scopeCheck(spec *tool.Spec, effect tool.Annotations, input map[string]any, scopes lane.Scopes) ([]string, *tool.Error) {
	write := scopes.Write
	read := append(scopes.Read[:len(scopes.Read):len(scopes.Read)], write...)
	deny := func(details map[string]any, format string, args ...any) *tool.Error {
		return tool.RefuseDetails(tool.CodeScopeDenied, details, format, args...)
	}
	var writes []string
	// Only paths the input gives bound what the call touches: a path input left out
	// is the command's own default, somewhere in the workspace, so the workspace's
	// scope applies as if the tool had no path inputs.
	gaveWrite, gaveAny := false, false
	for _, pi := range spec.Paths {
		for _, pv := range pathValues(input[pi.Property], pi.URL) {
			v := pv.path
			gaveAny = true
			if pi.Access == tool.Write {
				gaveWrite = true
			}
			// A URL's refusal names the value given and the path read from it.
			details := map[string]any{"property": pi.Property, "path": v, "access": string(pi.Access)}
			named := strconv.Quote(v)
			if pv.given != v {
				details["value"] = pv.given
				named = fmt.Sprintf("%q (path %q)", pv.given, v)
			}
			rp, known := resolveLinks(k.workspace, v)
			if !known {
				return nil, deny(details, "%s: %s %s holds more symbolic links than the system follows (a loop?), so where it leads is not known", spec.Name, pi.Property, named)
			}
			if protectedPath(rp, k.protected, k.stateRoot()) || (pi.Access == tool.Write && protectedPath(rp, k.writeProtected, k.stateRoot())) {
				// Whatever the caller's scopes: keys, evidence, the outbox and the
				// repository's own files are never a tool's to read or write.
				details["protected"] = true
				return nil, deny(details,
					"%s: %s %s resolves into cmdbridge's state or the repository's .git, which no tool may %s", spec.Name, pi.Property, named, pi.Access)
			}
			allowed := read
			if pi.Access == tool.Write {
				allowed = write
				writes = append(writes, rp)
			}
			if !withinAny(rp, allowed) {
				return nil, deny(details, "%s: %s %s resolves outside the caller's %s scopes", spec.Name, pi.Property, named, pi.Access)
			}
		}
	}
	switch {
	case !effect.ReadOnlyHint && !gaveWrite:
		if !withinAny(k.workspace, write) {
			return nil, deny(map[string]any{"access": "write"}, "%s writes the workspace, which is outside the caller's write scopes", spec.Name)
		}
	case !gaveAny:
		if !withinAny(k.workspace, read) {
			return nil, deny(map[string]any{"access": "read"}, "%s reads the workspace, which is outside the caller's scopes", spec.Name)
		}
	}
	sort.Strings(writes)
	return writes, nil
}

// stateRoot is the resolved state directory (findState lists it first in protected).
func (k *Kernel) stateRoot() string {
	if len(k.protected) == 0 {
		return ""
	}
	return k.protected[0]
}

// callerScopes are c's scopes resolved against the workspace.
func (k *Kernel) callerScopes(c Caller) lane.Scopes {
	return lane.Scopes{Read: k.resolveScopes(c.Read), Write: k.resolveScopes(c.Write)}
}

func (k *Kernel) resolveScopes(scopes []string) []string {
	out := make([]string, 0, len(scopes))
	for _, s := range scopes {
		if v, ok := k.scopeCache.Load(s); ok {
			out = append(out, v.(string))
			continue
		}
		r := resolvePath(k.workspace, s)
		k.scopeCache.Store(s, r)
		out = append(out, r)
	}
	return out
}

// pathValue is one path a path property gives: the value as given and the path it
// names (the same but for a URL input's).
type pathValue struct{ given, path string }

// pathValues extracts the paths of a path property (a string or a list).
func pathValues(v any, isURL bool) []pathValue {
	var given []string
	switch x := v.(type) {
	case string:
		given = []string{x}
	case []any:
		given = make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				given = append(given, s)
			}
		}
	}
	out := make([]pathValue, len(given))
	for i, g := range given {
		out[i] = pathValue{g, g}
		if isURL {
			out[i].path = urlPath(g)
		}
	}
	return out
}

// fileSchemes are the URL schemes whose URLs name a local file (tool.PathInput.URL).
var fileSchemes = []string{"file", "sqlite", "sqlite3"}

// urlPath is the path a URL input's value is held to: the path of a file:, sqlite: or
// sqlite3: URL (file:app.db, file:///abs/app.db, sqlite:///abs/app.db), its query left
// out and its escapes undone; any other value as it is written. So a program that
// reads a value of another form as a path gets none outside the scopes, and a network
// URL (postgres://host/db) is a relative name that resolves inside the workspace.
func urlPath(v string) string {
	u, err := url.Parse(v)
	if err != nil || !slices.Contains(fileSchemes, u.Scheme) {
		return v
	}
	p := u.Opaque // file:app.db
	if p == "" {
		p = u.Path
		if u.Host != "" && u.Host != "localhost" {
			p = "//" + u.Host + p // sqlite://app.db: read as written, /app.db, refused unless in scope
		}
	}
	if unescaped, err := url.PathUnescape(p); err == nil {
		p = unescaped
	}
	return p
}

// checkPathProps makes sure every declared path property exists in the schema.
func checkPathProps(spec *tool.Spec) error {
	for _, pi := range spec.Paths {
		if spec.InputSchema == nil || spec.InputSchema.Properties[pi.Property] == nil {
			return fmt.Errorf("tool %s declares path input %q that its schema lacks", spec.Name, pi.Property)
		}
		if pi.Access != tool.Read && pi.Access != tool.Write {
			return fmt.Errorf("tool %s: path input %q has access %q", spec.Name, pi.Property, pi.Access)
		}
	}
	return nil
}
