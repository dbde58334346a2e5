package doccheck

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var (
	// corpusHeadingRE is a numbered heading of docs/corpus ("### 3.1 WU lifecycle"), and
	// corpusCommandRE a command's heading under one ("#### `wu:claim` — RO").
	corpusHeadingRE = regexp.MustCompile(`^#+ (\d+(?:\.\d+)*)\.? `)
	corpusCommandRE = regexp.MustCompile("^#### `([^`]+)`")
	// citationRE is a citation of the corpus contract, with the command it names when
	// one follows ("corpus §3.1 wu:claim").
	citationRE = regexp.MustCompile("corpus §(\\d+(?:\\.\\d+)*),? `?([a-z]+(?::[a-z-]+)?)?")
	// staleRE is how code cited the contract while it lived outside the repository.
	staleRE = regexp.MustCompile(`spec §\d`)
)

// TestCorpusCitations: every "corpus §N" in the repository's Go files and docs names a
// numbered section of docs/corpus, a citation followed by a command's name names the
// section that holds the command, and nothing cites the contract as it was kept outside
// the repository ("spec §").
func TestCorpusCitations(t *testing.T) {
	root := repoRoot(t)
	sections := map[string]bool{}
	commands := map[string]string{} // command → the section holding it
	corpus, err := filepath.Glob(filepath.Join(root, "docs", "corpus", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, corpus, "docs/corpus holds the corpus's contract")
	for _, f := range corpus {
		var current string
		scanLines(t, f, func(_ int, line string) {
			if m := corpusHeadingRE.FindStringSubmatch(line); m != nil {
				current = m[1]
				sections[current] = true
			} else if m := corpusCommandRE.FindStringSubmatch(line); m != nil {
				commands[m[1]] = current
			}
		})
	}
	require.GreaterOrEqual(t, len(commands), 82, "docs/corpus has a heading for each of the corpus's 82 commands")

	cited := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		scanLines(t, path, func(n int, line string) {
			if staleRE.MatchString(line) {
				t.Errorf("%s:%d cites the contract as \"spec §\": it is docs/corpus now (\"corpus §\")", rel, n)
			}
			for _, m := range citationRE.FindAllStringSubmatch(line, -1) {
				cited++
				if !sections[m[1]] {
					t.Errorf("%s:%d cites corpus §%s: docs/corpus has no such section", rel, n, m[1])
				} else if in, ok := commands[m[2]]; ok && in != m[1] {
					t.Errorf("%s:%d cites corpus §%s for %s, which docs/corpus has in §%s", rel, n, m[1], m[2], in)
				}
			}
		})
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, cited, 100, "the corpus's code cites its contract")
}

// scanLines calls line for each line of the file at path, numbered from 1.
func scanLines(t *testing.T, path string, line func(n int, text string)) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	for n := 1; sc.Scan(); n++ {
		line(n, sc.Text())
	}
	require.NoError(t, sc.Err(), path)
}
