package status

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// invokers are the script words after which a tool name means "run this tool": the real
// delivery binary, the testscript lane commands, and `cmdbridge call`. Matching only
// these keeps `exec git status` from counting as the git:status tool.
var invokers = map[string]bool{"delivery": true, "bridge": true, "native": true, "parity": true, "call": true}

// goldenIndex counts, per domain folder, the scripts that invoke each tool. Each folder
// is read once.
type goldenIndex struct {
	dir     string
	domains map[string]map[string]int
}

func (g *goldenIndex) count(domain, name string) (int, error) {
	if domain == "" {
		return 0, nil
	}
	if g.domains == nil {
		g.domains = map[string]map[string]int{}
	}
	counts, ok := g.domains[domain]
	if !ok {
		var err error
		if counts, err = scanDomain(filepath.Join(g.dir, domain)); err != nil {
			return 0, err
		}
		g.domains[domain] = counts
	}
	return counts[name], nil
}

// scanDomain reads every *.txtar directly under dir; a missing dir has no scripts.
func scanDomain(dir string) (map[string]int, error) {
	counts := map[string]int{}
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, fmt.Errorf("scripts %s: %w", dir, err)
	}
	sort.Strings(files)
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("script %s: %w", f, err)
		}
		for name := range Invoked(string(ar.Comment)) {
			counts[name]++
		}
	}
	if _, err := os.Stat(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("scripts %s: %w", dir, err)
	}
	return counts, nil
}

// Invoked returns the tool names a testscript script runs: every word that follows an
// invoker word (delivery, bridge, native, parity, call) on a line that is not a comment.
func Invoked(script string) map[string]bool {
	names := map[string]bool{}
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words := strings.Fields(line)
		for i := 0; i+1 < len(words); i++ {
			if invokers[words[i]] && !strings.HasPrefix(words[i+1], "-") {
				names[words[i+1]] = true
			}
		}
	}
	return names
}
