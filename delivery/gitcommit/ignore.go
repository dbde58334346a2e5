package gitcommit

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignorer tells whether git add would refuse a new path as ignored: the patterns of
// core.excludesFile (else $XDG_CONFIG_HOME/git/ignore), info/exclude and the
// .gitignore files from the top down to the path's directory, the later winning, a
// path under an ignored directory ignored (go-git's matcher).
type ignorer struct {
	r      *Repo
	base   []gitignore.Pattern
	perDir map[string][]gitignore.Pattern
}

func (r *Repo) newIgnorer() *ignorer {
	ig := &ignorer{r: r, perDir: map[string][]gitignore.Pattern{}}
	global := r.xdgFile("ignore")
	if v, ok := r.cfg.get("core.excludesfile"); ok {
		global = v
		if strings.HasPrefix(global, "~/") {
			home, _ := r.env.get("HOME")
			global = filepath.Join(home, global[2:])
		} else if global != "" && !filepath.IsAbs(global) {
			global = filepath.Join(r.top, global)
		}
	}
	if global != "" {
		ig.base = append(ig.base, readPatterns(global, nil)...)
	}
	ig.base = append(ig.base, readPatterns(filepath.Join(r.commonDir, "info", "exclude"), nil)...)
	return ig
}

func readPatterns(path string, domain []string) []gitignore.Pattern {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// patterns are the base patterns and those of the .gitignore files of dirs[:n].
func (ig *ignorer) patterns(dirs []string) []gitignore.Pattern {
	ps := append([]gitignore.Pattern{}, ig.base...)
	for i := 0; i <= len(dirs); i++ {
		key := strings.Join(dirs[:i], "/")
		p, ok := ig.perDir[key]
		if !ok {
			p = readPatterns(filepath.Join(ig.r.top, filepath.FromSlash(key), ".gitignore"), dirs[:i])
			ig.perDir[key] = p
		}
		ps = append(ps, p...)
	}
	return ps
}

// ignored reports whether name, or a directory it is in, is ignored.
func (ig *ignorer) ignored(name string) bool {
	parts := strings.Split(name, "/")
	for i := 1; i <= len(parts); i++ {
		dirs := parts[:i-1]
		if gitignore.NewMatcher(ig.patterns(dirs)).Match(parts[:i], i < len(parts)) {
			return true
		}
	}
	return false
}
