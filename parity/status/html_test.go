package status_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	nethttp "net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

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

// diffOf renders a report whose only tool has diff (and parity state) and returns the
// difference and the log as rendered, "" when there is none.
func diffOf(t *testing.T, parityState, diff string) (difference, log string) {
	t.Helper()
	rep := status.Report{Tools: []status.ToolStatus{{Name: "wu:claim", Domain: "wu", Route: "native",
		Stage: status.StageNativeWithoutParity, Parity: parityState, Diff: diff}}}
	var b bytes.Buffer
	require.NoError(t, status.WriteHTML(&b, rep))
	page := b.String()
	if m := regexp.MustCompile(`(?s)<pre class="diff-text difference">(.*?)</pre>`).FindStringSubmatch(page); m != nil {
		difference = m[1]
	}
	if m := regexp.MustCompile(`(?s)<pre class="diff-text log">(.*?)</pre>`).FindStringSubmatch(page); m != nil {
		log = m[1]
	}
	return difference, log
}

func TestDiffShowsTheDifferenceBeforeTheLog(t *testing.T) {
	t.Run("field diff", func(t *testing.T) {
		d, log := diffOf(t, status.ParityFail, "# setup (0.1s)\n> exec delivery wu:create\n[stdout]\ncreated WU-1\n"+
			"> parity wu:claim {}\nFAIL: x.txtar:3: parity wu:claim {}: 1 difference(s) across a, b\n"+
			"a/b output /data/status\n    want: \"x\"\n    got:  \"y\"\n")
		assert.Equal(t, `<span class="d-cmd">&gt; parity wu:claim {}</span>`+
			`<span class="d-fail">FAIL: x.txtar:3: parity wu:claim {}: 1 difference(s) across a, b</span>`+
			`<span class="d-field">a/b output /data/status</span>`+
			`<span class="d-want">    want: &#34;x&#34;</span><span class="d-got">    got:  &#34;y&#34;</span>`, d)
		assert.Contains(t, log, `<span class="d-sec">[stdout]</span><span class="">created WU-1</span>`)
		assert.Contains(t, log, `<span class="d-fail">FAIL:`, "the log is whole")
	})
	t.Run("cmptree logs its unified diff before failing", func(t *testing.T) {
		d, _ := diffOf(t, status.ParityFail, "> cmptree out golden\n--- golden/a.txt\n+++ out/a.txt\n@@ -1 +1 @@\n-old\n+new\n"+
			"FAIL: x.txtar:9: out and golden differ\n")
		assert.Equal(t, `<span class="d-cmd">&gt; cmptree out golden</span><span class="d-hunk">--- golden/a.txt</span>`+
			`<span class="d-hunk">&#43;&#43;&#43; out/a.txt</span><span class="d-hunk">@@ -1 &#43;1 @@</span>`+
			`<span class="d-del">-old</span><span class="d-add">&#43;new</span>`+
			`<span class="d-fail">FAIL: x.txtar:9: out and golden differ</span>`, d)
	})
	t.Run("a failure after a command's output", func(t *testing.T) {
		d, _ := diffOf(t, status.ParityFail, "> exec delivery wu:done\n[stderr]\nboom\n[exit status 1]\nFAIL: x.txtar:2: unexpected command failure\n")
		assert.Equal(t, `<span class="d-cmd">&gt; exec delivery wu:done</span><span class="d-fail">FAIL: x.txtar:2: unexpected command failure</span>`, d)
	})
	t.Run("no FAIL line: all difference, no log", func(t *testing.T) {
		d, log := diffOf(t, status.ParityError, "script testdata/script/parity/wu_claim.txtar: no such file")
		assert.Equal(t, `<span class="">script testdata/script/parity/wu_claim.txtar: no such file</span>`, d)
		assert.Empty(t, log)
	})
}

// A parity state or stage the page does not know (the model may grow one) is shown as its
// own string, with a class it can be styled by, and sorts after the failures.
func TestPageRendersUnknownStatesAsTheyAre(t *testing.T) {
	rep := status.Report{Tools: []status.ToolStatus{
		{Name: "a:one", Stage: "half way", Parity: "in progress", Diff: "still running"},
		{Name: "b:two", Stage: status.StageAdapter, Parity: status.ParityNone},
		{Name: "c:three", Stage: status.StageAdapter, Parity: status.ParityError, Diff: "x"},
	}}
	var b bytes.Buffer
	require.NoError(t, status.WriteHTML(&b, rep))
	page := b.String()
	assert.Contains(t, page, `<span class="badge nowrap p-in-progress">in progress</span>`)
	assert.Contains(t, page, `<td class="stage st-half-way">half way</td>`)
	assert.Contains(t, page, `<summary>in progress: difference (1 line)`)
	rank := func(name string) string {
		m := regexp.MustCompile(`data-name="` + name + `"[^>]*data-parity="(\d+)"`).FindStringSubmatch(page)
		require.NotNil(t, m, name)
		return m[1]
	}
	assert.Less(t, rank("c:three"), rank("a:one"))
	assert.Less(t, rank("a:one"), rank("b:two"))
}

func TestPageSaysWhenThereAreNoResults(t *testing.T) {
	rep, err := status.Build(status.Config{Dir: t.TempDir(), Tools: fixtureTools()})
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

// dumpDOMs renders page once per fragment in one headless Chromium run (a browser start
// is most of what a render costs): a harness page, served with the page from a loopback
// server so that it may read its frames, holds one frame per fragment and, once every
// frame has loaded and run the page's script, copies each frame's DOM into a textarea of
// its own, which --dump-dom prints. It returns the DOMs in the order of fragments.
func dumpDOMs(t *testing.T, page []byte, fragments []string) []string {
	t.Helper()
	bin := findChromium()
	require.NotEmpty(t, bin, "headless Chromium is needed to test the status page: run `make deps` (Debian package chromium)")
	var harness strings.Builder
	harness.WriteString("<!doctype html><html><body>\n")
	for i, f := range fragments {
		fmt.Fprintf(&harness, "<iframe id=\"f%d\" src=\"/status.html#%s\"></iframe>\n", i, html.EscapeString(f))
	}
	fmt.Fprintf(&harness, `<script>
window.addEventListener("load", function () {
  for (var i = 0; i < %d; i++) {
    var out = document.createElement("textarea");
    out.id = "dom" + i;
    out.textContent = document.getElementById("f" + i).contentDocument.documentElement.outerHTML;
    document.body.appendChild(out);
  }
});
</script></body></html>`, len(fragments))
	srv := httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/status.html" {
			_, _ = w.Write(page)
			return
		}
		_, _ = io.WriteString(w, harness.String())
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), chromiumBound)
	defer cancel()
	args := append(append([]string{}, chromiumFlags...), "--user-data-dir="+t.TempDir(), "--dump-dom", srv.URL+"/")
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "chromium: %s", stderr.String())
	doms := make([]string, len(fragments))
	for i, f := range fragments {
		m := regexp.MustCompile(`(?s)<textarea id="dom` + strconv.Itoa(i) + `">(.*?)</textarea>`).FindStringSubmatch(stdout.String())
		require.NotNil(t, m, "no DOM for #%s (the harness's load handler did not run); stderr: %s", f, stderr.String())
		doms[i] = html.UnescapeString(m[1])
		require.Contains(t, doms[i], `data-ready="true"`, "the page's script did not finish for #%s", f)
	}
	return doms
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
	fragments := []string{""}
	for _, c := range cases {
		fragments = append(fragments, c.fragment)
	}
	doms := dumpDOMs(t, renderFixturePage(t), fragments)

	t.Run("rows and diffs", func(t *testing.T) {
		dom := doms[0]
		rows := domRows(t, dom)
		assert.Equal(t, []string{"config:get", "git:status", "mem:signal", "wu:claim", "wu:create", "wu:status"}, names(rows, false))
		assert.Contains(t, dom, "<title>cmdbridge migration status</title>", "escaped diff text must not run")
		for _, r := range rows {
			switch r.name {
			case "wu:claim":
				assert.Contains(t, r.body, `<details class="diff">`)
				assert.Contains(t, r.body, `+  "status": "&lt;script&gt;document.title='pwned'&lt;/script&gt;",`)
				assert.Contains(t, r.body, `-  "status": "in_progress",`)
			case "mem:signal":
				assert.Contains(t, r.body, "no such file")
			case "config:get": // schema warnings, escaped, under the row
				assert.NotContains(t, r.body, "<details")
				assert.Contains(t, r.body, `title="schema warnings">(!)</span>`)
				assert.Contains(t, r.body, "<li>flag --color: flag type *main.colorFlag is not a urfave/cli v2 type")
				assert.Contains(t, r.body, `&lt;script&gt;x&lt;/script&gt;`)
				assert.NotContains(t, r.body, "<script>x")
			default:
				assert.NotContains(t, r.body, "schema warnings", r.name)
				assert.NotContains(t, r.body, "<details", r.name)
			}
		}
		assert.Contains(t, dom, `id="progress">1 / 5</b>`)
		assert.NotContains(t, dom, `id="no-results"`)
	})

	for i, c := range cases {
		t.Run(c.fragment, func(t *testing.T) {
			dom := doms[i+1]
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
