package status_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/parity/status"
)

// chromiumNames are the names headless Chromium is installed under (Debian: chromium).
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// findChromium returns the first Chromium binary on PATH, or "".
func findChromium() string {
	for _, n := range chromiumNames {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// chromiumBound bounds one browser run: generous, the machine may be busy; it only keeps
// a hung browser from hanging the test.
const chromiumBound = 2 * time.Minute

// runChromium runs headless Chromium on a file URL with extra flags and returns stdout.
func runChromium(t *testing.T, bin, path, fragment string, flags ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), chromiumBound)
	defer cancel()
	u := url.URL{Scheme: "file", Path: path, Fragment: fragment}
	args := append(append(append([]string{}, chromiumFlags...), "--user-data-dir="+t.TempDir(), "--hide-scrollbars"), flags...)
	cmd := exec.CommandContext(ctx, bin, append(args, u.String())...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "chromium %s: %s", strings.Join(flags, " "), stderr.String())
	return stdout.String()
}

// longJSON is one unbroken line of JSON far wider than any window.
func longJSON(marker string) string {
	var items []string
	for i := 0; i < 40; i++ {
		items = append(items, fmt.Sprintf(`{"id":"WU-%d","lane":"ops","status":"%s"}`, i, marker))
	}
	return "[" + strings.Join(items, ",") + "]"
}

// scriptLog is a failing parity script's testscript log: 70 lines of log, then the
// failure with two field diffs (one of them a long JSON line) and a unified diff.
func scriptLog() string {
	var b strings.Builder
	b.WriteString("# claim WU-1 on every lane (0.412s)\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "> exec delivery wu:create --title 'step %d' --lane ops\n[stdout]\n{\"ok\":true,\"data\":{\"id\":\"WU-%d\"}}\n", i, i)
	}
	b.WriteString("# the claim (0.204s)\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, "> exec git log --oneline -n %d\n", i+1)
		b.WriteString("[stdout]\n")
	}
	b.WriteString("> parity wu:claim {\"id\":\"WU-1\"}\n")
	b.WriteString("FAIL: testdata/script/parity/wu_claim.txtar:71: parity wu:claim {\"id\":\"WU-1\"}: 3 difference(s) across subprocess, adapter, native\n")
	b.WriteString("subprocess/native output /data/status\n")
	b.WriteString("    want: \"in_progress\"\n")
	b.WriteString("    got:  \"<script>document.title='pwned'</script>\"\n")
	b.WriteString("subprocess/native output /data/claims\n")
	b.WriteString("    want: " + longJSON("in_progress") + "\n")
	b.WriteString("    got:  " + longJSON("ready") + "\n")
	b.WriteString("subprocess/native stream stdout:\n")
	b.WriteString("    --- subprocess\n    +++ native\n    @@ -1,3 +1,3 @@\n     {\n    -  \"status\": \"in_progress\",\n    +  \"status\": \"ready\",\n     }\n")
	return b.String()
}

// layoutReport is the fixture report with wu:claim failing on a realistic log and a
// "migrate next" list long enough to fold.
func layoutReport(t *testing.T) status.Report {
	rep := fixtureReport(t)
	for i := range rep.Tools {
		if rep.Tools[i].Name == "wu:claim" {
			rep.Tools[i].Diff = scriptLog()
		}
	}
	for i := 0; i < 12; i++ {
		c := status.Candidate{
			Rank: len(rep.MigrateNext) + 1, Name: fmt.Sprintf("plan:step-%02d", i), Domain: "initiative",
			Score: float64(70 - i), GoldenScripts: 1, Lines: 150 + i,
			Source: fmt.Sprintf("commands/initiative/plan_step_%02d.go", i), Calls: 2, Shared: []string{"delivery.Errorf"},
		}
		if i == 0 { // long enough to wrap
			c.Name = "initiative:bulk-assign-with-a-long-name"
			c.Source = "commands/initiative/a_rather_long_directory_name/initiative_bulk_assign_with_a_long_name.go"
			c.Calls, c.Shared = 6, []string{"delivery.Confine", "delivery.Errorf", "delivery.ReadWU", "ops.MemSignal"}
		}
		rep.MigrateNext = append(rep.MigrateNext, c)
	}
	return rep
}

// measureScript opens every diff and log, then records on <body> what the test checks: the
// page's widths, where the wu:claim difference sits relative to its log, and the colours
// its want, got and FAIL lines are drawn in.
const measureScript = `<script>
(function () {
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  var de = document.documentElement, r = {};
  r.scrollWidth = de.scrollWidth; r.clientWidth = de.clientWidth; r.innerWidth = window.innerWidth;
  ["tools", "migrate-next"].forEach(function (id) {
    var el = document.getElementById(id), box = el.getBoundingClientRect();
    r[id] = { right: box.right, scrollWidth: el.scrollWidth, clientWidth: el.clientWidth };
  });
  var row = document.querySelector('tbody[data-name="wu:claim"]');
  var diff = row.querySelector("pre.difference"), log = row.querySelector("pre.log");
  r.diffFirst = !!(diff && log) && !!(diff.compareDocumentPosition(log) & Node.DOCUMENT_POSITION_FOLLOWING) &&
    diff.getBoundingClientRect().bottom <= log.getBoundingClientRect().top;
  function colours(sel) {
    var el = diff && diff.querySelector(sel);
    if (!el) { return null; }
    var s = getComputedStyle(el);
    return { color: s.color, background: s.backgroundColor, width: el.getBoundingClientRect().width };
  }
  r.pre = colours('span[class=""]') || { background: getComputedStyle(diff).backgroundColor, color: getComputedStyle(diff).color };
  r.want = colours(".d-want"); r.got = colours(".d-got"); r.fail = colours(".d-fail");
  r.add = colours(".d-add"); r.del = colours(".d-del");
  r.diffWidth = diff ? diff.getBoundingClientRect().width : 0;
  document.body.setAttribute("data-measure", JSON.stringify(r));
})();
</script>
`

// screenshotHeight is the screenshots' height in px: down to the failing row's diff.
const screenshotHeight = 2600

type box struct {
	Right       float64 `json:"right"`
	ScrollWidth int     `json:"scrollWidth"`
	ClientWidth int     `json:"clientWidth"`
}

type look struct {
	Color      string  `json:"color"`
	Background string  `json:"background"`
	Width      float64 `json:"width"`
}

type measure struct {
	ScrollWidth int     `json:"scrollWidth"`
	ClientWidth int     `json:"clientWidth"`
	InnerWidth  int     `json:"innerWidth"`
	Tools       box     `json:"tools"`
	Next        box     `json:"migrate-next"`
	DiffFirst   bool    `json:"diffFirst"`
	Pre         *look   `json:"pre"`
	Want        *look   `json:"want"`
	Got         *look   `json:"got"`
	Fail        *look   `json:"fail"`
	Add         *look   `json:"add"`
	Del         *look   `json:"del"`
	DiffWidth   float64 `json:"diffWidth"`
}

var measureRE = regexp.MustCompile(`data-measure="([^"]*)"`)

// TestPageLayoutInChromium renders a page with a failing diff (a 70-line log, want/got
// lines, a JSON line thousands of characters wide) and a long "migrate next" list, and
// checks it in headless Chromium at 1000 and 1400 px with every diff opened: nothing is
// wider than the window, the difference comes before the log, and want, got, FAIL and
// unified-diff lines are coloured. It saves a screenshot per width to a temporary
// directory, copied to $CMDBRIDGE_SCREENSHOTS when that is set.
func TestPageLayoutInChromium(t *testing.T) {
	bin := findChromium()
	if bin == "" {
		t.Skipf("host capability missing: headless Chromium (none of %s on PATH); `make deps` installs it with apt-get", strings.Join(chromiumNames, ", "))
	}
	var page bytes.Buffer
	require.NoError(t, status.WriteHTML(&page, layoutReport(t)))
	src := page.String()
	require.Contains(t, src, "</body>")
	dir := t.TempDir()
	measured := filepath.Join(dir, "measure.html")
	require.NoError(t, os.WriteFile(measured, []byte(strings.Replace(src, "</body>", measureScript+"</body>", 1)), 0o644))
	plain := filepath.Join(dir, "status.html")
	require.NoError(t, os.WriteFile(plain, []byte(src), 0o644))

	// Static structure: the difference, then the folded log.
	claim := src[strings.Index(src, `data-name="wu:claim"`):]
	claim = claim[:strings.Index(claim, "</tbody>")]
	iDiff, iLog := strings.Index(claim, `<pre class="diff-text difference">`), strings.Index(claim, `<details class="log">`)
	require.True(t, iDiff >= 0 && iLog > iDiff, "the difference precedes the folded log")
	difference := claim[iDiff:iLog]
	assert.Contains(t, difference, `<span class="d-fail">FAIL: testdata/script/parity/wu_claim.txtar:71:`)
	assert.Contains(t, difference, `<span class="d-want">    want: &#34;in_progress&#34;</span>`)
	assert.Contains(t, difference, `<span class="d-got">    got:  &#34;&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;&#34;</span>`)
	assert.Contains(t, difference, `<span class="d-add">    &#43;  &#34;status&#34;: &#34;ready&#34;,</span>`)
	assert.Contains(t, difference, `<span class="d-del">    -  &#34;status&#34;: &#34;in_progress&#34;,</span>`)
	assert.Contains(t, difference, `<span class="d-cmd">&gt; parity wu:claim`, "the failing command heads the difference")
	assert.NotContains(t, difference, "step 3", "the log's earlier lines stay in the log")
	assert.Contains(t, claim[iLog:], "step 3")

	shots := map[int]string{}
	for _, width := range []int{1000, 1400} {
		t.Run(fmt.Sprintf("%dpx", width), func(t *testing.T) {
			size := fmt.Sprintf("--window-size=%d,900", width)
			dom := runChromium(t, bin, measured, "", size, "--dump-dom")
			require.Contains(t, dom, `data-ready="true"`, "the page's script did not finish")
			m := measureRE.FindStringSubmatch(dom)
			require.NotNil(t, m, "the measuring script did not run")
			var got measure
			require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(m[1])), &got), m[1])
			t.Logf("%+v", got)

			require.Equal(t, width, got.InnerWidth, "the window is %d px wide", width)
			assert.LessOrEqual(t, got.ScrollWidth, got.ClientWidth, "the page is wider than the window: it scrolls sideways")
			for name, b := range map[string]box{"tools table": got.Tools, "migrate next": got.Next} {
				assert.LessOrEqual(t, b.ScrollWidth, b.ClientWidth, "%s overflows its box", name)
				assert.LessOrEqual(t, b.Right, float64(got.ClientWidth), "%s is clipped at the window's edge", name)
			}
			assert.LessOrEqual(t, got.DiffWidth, float64(got.ClientWidth), "an opened diff widens the page")
			assert.True(t, got.DiffFirst, "the difference is drawn above the script log")
			for name, l := range map[string]*look{"want": got.Want, "got": got.Got, "FAIL": got.Fail, "+": got.Add, "-": got.Del} {
				if assert.NotNil(t, l, "no %s line in the difference", name) && got.Pre != nil {
					assert.False(t, l.Color == got.Pre.Color && l.Background == got.Pre.Background,
						"%s lines are drawn like plain lines (%s on %s)", name, l.Color, l.Background)
				}
			}
			if got.Want != nil && got.Got != nil {
				assert.NotEqual(t, got.Want.Background, got.Got.Background, "want and got look alike")
			}

			shot := filepath.Join(dir, fmt.Sprintf("status-%d.png", width))
			// The screenshot is taller than the window measured, so that it reaches the
			// failing row, whose diff the page opens itself (#open=diffs).
			runChromium(t, bin, plain, "open=diffs", fmt.Sprintf("--window-size=%d,%d", width, screenshotHeight), "--screenshot="+shot)
			info, err := os.Stat(shot)
			require.NoError(t, err, "no screenshot")
			assert.Greater(t, info.Size(), int64(1000))
			shots[width] = shot
		})
	}
	if out := os.Getenv("CMDBRIDGE_SCREENSHOTS"); out != "" {
		require.NoError(t, os.MkdirAll(out, 0o755))
		for _, shot := range shots {
			data, err := os.ReadFile(shot)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(out, filepath.Base(shot)), data, 0o644))
		}
		t.Logf("screenshots copied to %s", out)
	}
}
