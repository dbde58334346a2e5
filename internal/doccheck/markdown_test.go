package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// page is one markdown file: its path relative to the repository root and its lines.
type page struct {
	rel   string
	lines []string
}

// block is one fenced code block.
type block struct {
	page      *page
	line      int    // 1-based line of the opening fence
	lang      string // the fence's info word ("" when it names none)
	body      string // the lines between the fences, indentation of the fence removed
	directive string // the doccheck comment right before the fence, without the markers ("" when none)
}

func (b block) where() string { return b.page.rel + ":" + strconv.Itoa(b.line) }

// repoRoot is the module root: two levels above this package.
func repoRoot(t testing.TB) string { return outsidetest.RepoRoot(t) }

// pages reads README.md and docs/*.md.
func pages(t testing.TB, root string) []*page {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	sort.Strings(files)
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	var out []*page
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		rel, err := filepath.Rel(root, f)
		require.NoError(t, err)
		out = append(out, &page{rel: filepath.ToSlash(rel), lines: strings.Split(string(b), "\n")})
	}
	require.NotEmpty(t, out)
	return out
}

var (
	fenceRE     = regexp.MustCompile("^(\\s*)(```+)\\s*([^`\\s]*)\\s*$")
	directiveRE = regexp.MustCompile(`^\s*<!--\s*doccheck:\s*(.*?)\s*-->\s*$`)
)

// blocks splits a page into its fenced blocks; prose gets the lines outside them (fence
// lines blanked), so line numbers stay those of the file.
func (p *page) blocks() (blocks []block, prose []string) {
	prose = make([]string, len(p.lines))
	for i := 0; i < len(p.lines); i++ {
		m := fenceRE.FindStringSubmatch(p.lines[i])
		if m == nil {
			prose[i] = p.lines[i]
			continue
		}
		b := block{page: p, line: i + 1, lang: m[3]}
		for j := i - 1; j >= 0; j-- {
			if strings.TrimSpace(p.lines[j]) == "" {
				continue
			}
			if d := directiveRE.FindStringSubmatch(p.lines[j]); d != nil {
				b.directive = d[1]
			}
			break
		}
		indent, fence := m[1], m[2]
		var body []string
		j := i + 1
		for ; j < len(p.lines); j++ {
			if strings.TrimSpace(p.lines[j]) == fence || strings.HasPrefix(strings.TrimSpace(p.lines[j]), fence) && strings.Trim(strings.TrimSpace(p.lines[j]), "`") == "" {
				break
			}
			body = append(body, strings.TrimPrefix(p.lines[j], indent))
		}
		b.body = strings.Join(body, "\n") + "\n"
		blocks = append(blocks, b)
		i = j
	}
	return blocks, prose
}

// shell reports whether a block's language is one the examples test runs.
func (b block) shell() bool {
	switch b.lang {
	case "sh", "bash", "shell", "console":
		return true
	}
	return false
}

// commands is the shell text of a block: for console blocks only the lines after a
// "$ " prompt (the rest is output).
func (b block) commands() string {
	if b.lang != "console" {
		return b.body
	}
	var out []string
	for _, l := range strings.Split(b.body, "\n") {
		if c, ok := strings.CutPrefix(strings.TrimLeft(l, " "), "$ "); ok {
			out = append(out, c)
		}
	}
	return strings.Join(out, "\n") + "\n"
}
