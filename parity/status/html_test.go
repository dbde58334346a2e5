package status_test

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/parity/status"
)

func renderFixturePage(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, status.WriteHTML(&b, fixtureReport(t)))
	return b.Bytes()
}

func TestPageIsSelfContainedAndEscaped(t *testing.T) {
	page := string(renderFixturePage(t))
	for _, external := range []string{"http://", "https://", "<link", " src=", "@import", "url("} {
		assert.NotContains(t, page, external, "the page must not fetch anything")
	}
	// The failing diff carries markup; it must arrive as text.
	assert.NotContains(t, page, "<script>document.title")
	assert.Contains(t, page, "&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;")
	assert.Equal(t, 1, strings.Count(page, "<script>"), "only the page's own script")
}

func TestPageSaysWhenThereAreNoResults(t *testing.T) {
	rep, err := status.Build(status.Options{Dir: t.TempDir(), Tools: fixtureTools()})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, status.WriteHTML(&b, rep))
	assert.Contains(t, b.String(), `id="no-results"`)
	assert.Contains(t, b.String(), "<code>.cmdbridge/parity/last.json</code>")
	assert.NotContains(t, b.String(), `id="run-at"`)
}

// chromiumFlags keep the browser off the network and away from the user's profile.
var chromiumFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
}

// dumpDOM renders the page at path with fragment in headless Chromium and returns the
// DOM after its script ran.
func dumpDOM(t *testing.T, path, fragment string) string {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	require.NoError(t, err, "headless Chromium is needed to test the status page: run `make deps` (Debian package chromium)")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	u := url.URL{Scheme: "file", Path: path, Fragment: fragment}
	args := append(append([]string{}, chromiumFlags...), "--user-data-dir="+t.TempDir(), "--dump-dom", u.String())
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "chromium: %s", stderr.String())
	dom := stdout.String()
	require.Contains(t, dom, `data-ready="true"`, "the page's script did not finish; stderr: %s", stderr.String())
	return dom
}

type domRow struct {
	name   string
	hidden bool
	body   string
}

var tbodyRE = regexp.MustCompile(`(?s)<tbody ([^>]*)>(.*?)</tbody>`)
var shownRE = regexp.MustCompile(`<output id="shown"[^>]*>([^<]*)</output>`)
var nameRE = regexp.MustCompile(`data-name="([^"]*)"`)

// domRows returns the table's tool rows in document order.
func domRows(t *testing.T, dom string) []domRow {
	t.Helper()
	var rows []domRow
	for _, m := range tbodyRE.FindAllStringSubmatch(dom, -1) {
		if !strings.Contains(m[1], `class="tool"`) {
			continue
		}
		n := nameRE.FindStringSubmatch(m[1])
		require.NotNil(t, n, "tbody without data-name: %s", m[1])
		rows = append(rows, domRow{name: n[1], hidden: regexp.MustCompile(`\bhidden\b`).MatchString(m[1]), body: m[2]})
	}
	return rows
}

func names(rows []domRow, visibleOnly bool) []string {
	var out []string
	for _, r := range rows {
		if !visibleOnly || !r.hidden {
			out = append(out, r.name)
		}
	}
	return out
}

func TestPageInChromium(t *testing.T) {
	path := filepath.Join(t.TempDir(), "status.html")
	require.NoError(t, os.WriteFile(path, renderFixturePage(t), 0o644))

	t.Run("rows and diffs", func(t *testing.T) {
		dom := dumpDOM(t, path, "")
		rows := domRows(t, dom)
		assert.Equal(t, []string{"config:get", "git:status", "mem:signal", "wu:claim", "wu:create", "wu:status"}, names(rows, false))
		assert.Contains(t, dom, "<title>cmdbridge migration status</title>", "escaped diff text must not run")
		for _, r := range rows {
			switch r.name {
			case "wu:claim":
				assert.Contains(t, r.body, "<details>")
				assert.Contains(t, r.body, `+  "status": "&lt;script&gt;document.title='pwned'&lt;/script&gt;",`)
				assert.Contains(t, r.body, `-  "status": "in_progress",`)
			case "mem:signal":
				assert.Contains(t, r.body, "no such file")
			case "config:get": // schema warnings, escaped, under the row
				assert.NotContains(t, r.body, "<details>")
				assert.Contains(t, r.body, `title="schema warnings">(!)</span>`)
				assert.Contains(t, r.body, "<li>flag --color: flag type *main.colorFlag is not a urfave/cli v2 type")
				assert.Contains(t, r.body, `&lt;script&gt;x&lt;/script&gt;`)
				assert.NotContains(t, r.body, "<script>x")
			default:
				assert.NotContains(t, r.body, "schema warnings", r.name)
				assert.NotContains(t, r.body, "<details>", r.name)
			}
		}
		assert.Contains(t, dom, `id="progress">1 / 5</b>`)
		assert.NotContains(t, dom, `id="no-results"`)
	})

	cases := []struct {
		fragment string
		want     []string
		visible  []string
	}{
		// Worst parity first: fail, error, none, pass; ties by name.
		{"sort=parity", []string{"wu:claim", "mem:signal", "config:get", "git:status", "wu:create", "wu:status"}, nil},
		{"sort=-goldens", []string{"wu:status", "config:get", "wu:claim", "git:status", "mem:signal", "wu:create"}, nil},
		{"sort=-name", []string{"wu:status", "wu:create", "wu:claim", "mem:signal", "git:status", "config:get"}, nil},
		{"sort=stage", []string{"wu:claim", "config:get", "mem:signal", "wu:create", "wu:status", "git:status"}, nil},
		{"sort=bogus", []string{"config:get", "git:status", "mem:signal", "wu:claim", "wu:create", "wu:status"}, nil},
		{"filter=wu:", nil, []string{"wu:claim", "wu:create", "wu:status"}},
		{"sort=parity&filter=native", nil, []string{"wu:claim", "git:status", "wu:status"}},
	}
	for _, c := range cases {
		t.Run(c.fragment, func(t *testing.T) {
			dom := dumpDOM(t, path, c.fragment)
			rows := domRows(t, dom)
			require.Len(t, rows, 6, "filtering hides rows, it never removes them")
			if c.want != nil {
				assert.Equal(t, c.want, names(rows, false))
			}
			if c.visible != nil {
				assert.Equal(t, c.visible, names(rows, true))
				m := shownRE.FindStringSubmatch(dom)
				require.NotNil(t, m, "no #shown output")
				assert.Equal(t, strconv.Itoa(len(c.visible))+" of 6 tools", m[1])
			}
		})
	}
}
