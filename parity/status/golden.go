package status

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// invokers are the script words after which a tool name means "run this tool": the
// testscript lane commands and `cmdbridge call`; the program's own name (a multi-call
// binary run with a tool name, Config.Program) is one too. Matching only these keeps
// `exec git status` from counting as the git:status tool.
var invokers = []string{"bridge", "native", "parity", "call"}

// goldenIndex counts, per domain folder, the scripts that invoke each tool. Each folder
// is read once.
type goldenIndex struct {
	dir     string
	program string // Config.Program
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
		if counts, err = scanDomain(filepath.Join(g.dir, domain), g.program); err != nil {
			return 0, err
		}
		g.domains[domain] = counts
	}
	return counts[name], nil
}

// scanDomain reads every *.txtar directly under dir; a missing dir has no scripts.
func scanDomain(dir, program string) (map[string]int, error) {
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
		for name := range Invoked(string(ar.Comment), program) {
			counts[name]++
		}
	}
	if _, err := os.Stat(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("scripts %s: %w", dir, err)
	}
	return counts, nil
}

// Invoked returns the tool names a testscript script runs: every word that follows an
// invoker word (bridge, native, parity, call, or program when it is not empty) on a line
// that is not a comment.
func Invoked(script, program string) map[string]bool {
	names := map[string]bool{}
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words := strings.Fields(line)
		for i := 0; i+1 < len(words); i++ {
			if (slices.Contains(invokers, words[i]) || (program != "" && words[i] == program)) && !strings.HasPrefix(words[i+1], "-") {
				names[words[i+1]] = true
			}
		}
	}
	return names
}
