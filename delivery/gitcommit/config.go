package gitcommit

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/go-git/gcfg"
)

// config is git's configuration as one commit sees it: every source in git's order,
// the last value of a key winning. Keys are "section.key" or "section.sub.key" with the
// section and key lower-cased (the subsection keeps its case, as in git).
type config struct {
	values map[string]string
	set    map[string]bool // keys given without a value (`[core] bare`): true
}

func (c *config) get(key string) (string, bool) {
	v, ok := c.values[key]
	return v, ok
}

// boolean is key as git reads a boolean, def when unset; ok is false for a value git
// would reject.
func (c *config) boolean(key string, def bool) (v bool, ok bool) {
	s, set := c.values[key]
	if !set {
		return def, true
	}
	if c.set[key] {
		return true, true
	}
	switch strings.ToLower(s) {
	case "true", "yes", "on", "1":
		return true, true
	case "false", "no", "off", "0", "":
		return false, true
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n != 0, true
	}
	return false, false
}

// integer is key as a git integer (k, m, g suffixes), def when unset.
func (c *config) integer(key string, def int64) (int64, bool) {
	s, set := c.values[key]
	if !set {
		return def, true
	}
	mult := int64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k', 'K':
			mult, s = 1<<10, s[:n-1]
		case 'm', 'M':
			mult, s = 1<<20, s[:n-1]
		case 'g', 'G':
			mult, s = 1<<30, s[:n-1]
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, false
	}
	return n * mult, true
}

// errInclude marks a configuration file that includes others.
var errInclude = errors.New("include")

// load adds one file; a missing file adds nothing.
func (c *config) load(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil
	}
	if err != nil {
		return err
	}
	return gcfg.ReadWithCallback(bytes.NewReader(b), func(section, sub, key, value string, blank bool) error {
		s := strings.ToLower(section)
		if s == "include" || s == "includeif" {
			return errInclude
		}
		if key == "" {
			return nil
		}
		name := s + "."
		if sub != "" {
			name += sub + "."
		}
		c.put(name+strings.ToLower(key), value, blank)
		return nil
	})
}

func (c *config) put(key, value string, blank bool) {
	if c.values == nil {
		c.values, c.set = map[string]string{}, map[string]bool{}
	}
	c.values[key] = value
	c.set[key] = blank
}

// putArg adds a "section.key=value" override (GIT_CONFIG_KEY_n, -c), lower-casing the
// section and the key as git does.
func (c *config) putArg(key, value string) {
	first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if first < 0 {
		c.put(strings.ToLower(key), value, false)
		return
	}
	c.put(strings.ToLower(key[:first])+key[first:last]+strings.ToLower(key[last:]), value, false)
}

// readConfig reads the system, global and repository files (the work tree's
// config.worktree too under extensions.worktreeConfig) and the environment's
// GIT_CONFIG_COUNT pairs, in git's order.
func readConfig(env envMap, commonDir, gitDir string) (*config, error) {
	c := &config{}
	var files []string
	if v, _ := env.get("GIT_CONFIG_NOSYSTEM"); !gitTrue(v) {
		sys := "/etc/gitconfig"
		if v, ok := env.get("GIT_CONFIG_SYSTEM"); ok {
			sys = v
		}
		files = append(files, sys)
	}
	if v, ok := env.get("GIT_CONFIG_GLOBAL"); ok {
		files = append(files, v)
	} else {
		home, _ := env.get("HOME")
		xdg, _ := env.get("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	files = append(files, filepath.Join(commonDir, "config"))
	for i := 0; i < len(files); i++ {
		f := files[i]
		if f == "" || f == os.DevNull {
			continue
		}
		if err := c.load(f); errors.Is(err, errInclude) {
			return nil, unsupported("%s includes other files", f)
		} else if err != nil {
			return nil, unsupported("%s: %v", f, err)
		}
		if i == len(files)-1 && filepath.Base(f) == "config" {
			if on, _ := c.boolean("extensions.worktreeconfig", false); on {
				files = append(files, filepath.Join(gitDir, "config.worktree"))
			}
		}
	}
	if v, ok := env.get("GIT_CONFIG_COUNT"); ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, unsupported("GIT_CONFIG_COUNT=%q", v)
		}
		for i := 0; i < n; i++ {
			k, okK := env.get("GIT_CONFIG_KEY_" + strconv.Itoa(i))
			val, okV := env.get("GIT_CONFIG_VALUE_" + strconv.Itoa(i))
			if !okK || !okV {
				return nil, unsupported("GIT_CONFIG_COUNT=%d without GIT_CONFIG_KEY_%d or GIT_CONFIG_VALUE_%d", n, i, i)
			}
			c.putArg(k, val)
		}
	}
	return c, nil
}

// gitTrue is a boolean environment variable as git reads one.
func gitTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "false", "no", "off", "0":
		return false
	}
	return true
}

// envMap is an environment (KEY=VALUE list); the last entry of a key wins, as for a
// process given the list.
type envMap map[string]string

func newEnvMap(environ []string) envMap {
	m := envMap{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

func (m envMap) get(k string) (string, bool) {
	v, ok := m[k]
	return v, ok
}

// harmlessGitVars are the GIT_* variables that change nothing in the commit this package
// makes: configuration sources (read above), dates (read by the commit), transport,
// prompts, editors and diagnostics.
var harmlessGitVars = map[string]bool{
	"GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true, "GIT_CONFIG_NOSYSTEM": true, "GIT_CONFIG_COUNT": true,
	"GIT_AUTHOR_DATE": true, "GIT_COMMITTER_DATE": true,
	"GIT_TERMINAL_PROMPT": true, "GIT_ASKPASS": true, "GIT_SSH": true, "GIT_SSH_COMMAND": true, "GIT_SSH_VARIANT": true,
	"GIT_SSL_CAINFO": true, "GIT_SSL_CAPATH": true, "GIT_SSL_NO_VERIFY": true, "GIT_ALLOW_PROTOCOL": true,
	"GIT_OPTIONAL_LOCKS": true, "GIT_EXEC_PATH": true, "GIT_TEMPLATE_DIR": true, "GIT_PAGER": true, "GIT_EDITOR": true,
	"GIT_CEILING_DIRECTORIES": true, "GIT_DISCOVERY_ACROSS_FILESYSTEM": true, "GIT_PROTOCOL_FROM_USER": true,
	"GIT_FLUSH": true, "GIT_PROGRESS_DELAY": true, "GIT_ADVICE": true,
}

// checkEnv returns the first variable of env this package does not reproduce.
func checkEnv(env envMap) error {
	var bad []string
	for k := range env {
		if !strings.HasPrefix(k, "GIT_") || harmlessGitVars[k] || strings.HasPrefix(k, "GIT_TRACE") ||
			strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			continue
		}
		bad = append(bad, k)
	}
	if len(bad) == 0 {
		return nil
	}
	first := bad[0]
	for _, k := range bad {
		first = min(first, k)
	}
	return unsupported("the environment sets %s", first)
}
