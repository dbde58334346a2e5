package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/parity/status"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/statuscmd"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// tintFlag is a flag type from outside urfave/cli (it takes a value).
type tintFlag struct{}

func (tintFlag) String() string                { return "--tint" }
func (tintFlag) Apply(set *flag.FlagSet) error { set.String("tint", "", ""); return nil }
func (tintFlag) Names() []string               { return []string{"tint"} }
func (tintFlag) IsSet() bool                   { return false }
func (tintFlag) TakesValue() bool              { return true }
func (tintFlag) GetUsage() string              { return "a tint" }
func (tintFlag) GetValue() string              { return "" }
func (tintFlag) GetDefaultText() string        { return "" }
func (tintFlag) GetEnvVars() []string          { return nil }

// warnedHost serves an adopter's three commands: one mapped with fallbacks, one whose
// metadata is broken (unavailable), one clean.
func warnedHost(t *testing.T) cli.Host {
	r := legacy.NewRegistry()
	add := func(name, usage string, meta map[string]any, flags ...ucli.Flag) {
		require.NoError(t, r.Add(legacy.Command{Name: name, Domain: "adopter", Main: func(context.Context) {},
			New: func() *ucli.App {
				return &ucli.App{Name: name, Usage: "adopter " + name, ArgsUsage: usage, Metadata: meta, Flags: flags}
			}}))
	}
	add("adopter:odd", "[-y] <a> {b,c}", nil, tintFlag{})
	add("adopter:broken", "<DIR>", map[string]any{legacy.MetaPaths: map[string]string{"nowhere": "read"}})
	add("adopter:fine", "FILE [FILE...]", map[string]any{legacy.MetaPaths: map[string]string{"file": "read"}})
	return cli.Host{Config: hostconfig.Config{Commands: r, Native: native.NewRegistry()}}
}

func runHost(t *testing.T, host cli.Host, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(append([]string{"cmdbridge", "--workspace", t.TempDir()}, args...), &out, &errb, host)
	return out.String(), errb.String(), code
}

const (
	tintWarning  = "flag --tint: flag type cli_test.tintFlag is not a urfave/cli v2 type; it is a string passed as --name=value"
	usageWarning = `ArgsUsage "[-y] <a> {b,c}" is outside the positional grammar`
)

func TestToolsListShowsSchemaWarnings(t *testing.T) {
	host := warnedHost(t)
	out, errOut, code := runHost(t, host, "tools", "list")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^adopter:odd \(!\)\s+adapter\s+adopter adopter:odd$`, out)
	assert.Regexp(t, `(?m)^adopter:broken \(!\)\s+adapter\s+unavailable`, out)
	assert.Regexp(t, `(?m)^adopter:fine\s+adapter\s+adopter adopter:fine$`, out)
	assert.Contains(t, out, "(!) schema warnings (docs/schemas.md):\n")
	assert.Contains(t, out, "  adopter:odd: "+tintWarning+"\n")
	assert.Contains(t, out, "  adopter:odd: "+usageWarning)
	assert.Contains(t, out, "  adopter:broken: unavailable, every call is refused: ")
	assert.Contains(t, out, "\n2 tools with schema warnings\n")

	out, errOut, code = runHost(t, host, "tools", "list", "--json")
	require.Equal(t, 0, code, errOut)
	var rows []struct {
		Name     string
		Warnings []string
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	byName := map[string][]string{}
	for _, r := range rows {
		byName[r.Name] = r.Warnings
	}
	require.Len(t, byName["adopter:odd"], 2)
	assert.Equal(t, tintWarning, byName["adopter:odd"][0])
	assert.Contains(t, byName["adopter:odd"][1], usageWarning)
	require.Len(t, byName["adopter:broken"], 1)
	assert.Nil(t, byName["adopter:fine"])
	assert.NotContains(t, out, `"warnings": null`, "omitted when empty")
}

func TestStatusShowsSchemaWarnings(t *testing.T) {
	host := warnedHost(t)
	host.Subcommands = []*ucli.Command{statuscmd.Command()}
	repo := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "testdata", "script"), 0o755))
	page := filepath.Join(t.TempDir(), "status.html")

	out, errOut, code := runHost(t, host, "status", "--dir", repo, "--json", "--html", page)
	require.Equal(t, 0, code, errOut)
	var rep status.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 2, rep.Totals.SchemaWarnings)
	warned := map[string][]string{}
	for _, ts := range rep.Tools {
		warned[ts.Name] = ts.Warnings
	}
	require.Len(t, warned["adopter:odd"], 2)
	assert.Equal(t, tintWarning, warned["adopter:odd"][0])
	assert.Empty(t, warned["adopter:fine"])

	html, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(html), "<li>"+tintWarning+"</li>")
	assert.Equal(t, 2, strings.Count(string(html), `title="schema warnings">(!)</span>`))

	out, errOut, code = runHost(t, host, "status", "--dir", repo)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^adopter:odd \(!\)\s+adapter`, out)
	assert.Contains(t, out, "(!) schema warnings (2 tools; see docs/schemas.md):\n")
	assert.Contains(t, out, "  adopter:odd: "+tintWarning+"\n")
}
