package http_test

import (
	"io"
	nethttp "net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// TestRedTeamAliasCannotWidenAToken: a command alias is only a spelling of its tool. A
// token whose glob matches the alias's text (notes:re* matches "notes:remove") but not
// the tool (notes:rm) is refused, as for any tool it cannot see; a token for the tool
// calls it by the alias.
func TestRedTeamAliasCannotWidenAToken(t *testing.T) {
	ok := func(c *cli.Context) error {
		_, err := io.WriteString(c.App.Writer, "ran "+c.Command.Name+"\n")
		return err
	}
	r := legacy.NewRegistry()
	require.NoError(t, r.AddApp(func() *cli.App {
		return &cli.App{Name: "gizmo", Commands: []*cli.Command{{Name: "notes", Subcommands: []*cli.Command{
			{Name: "rm", Aliases: []string{"remove"}, Action: ok},
			{Name: "read", Action: ok},
		}}}}
	}, legacy.TreeOptions{Effects: map[string]legacy.Effects{"notes:*": {}}})) // they write (undeclared, they would ask first)
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: t.TempDir(),
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Commands: r,
		Native:   native.NewRegistry(),
	})
	require.NoError(t, err)
	srv, err := surfacehttp.New(surfacehttp.Config{Kernel: k, Key: testKey})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Close(); ts.Close(); _ = k.Close() })

	post := func(tok, name string) (int, string) {
		req, err := nethttp.NewRequest("POST", ts.URL+"/tools/"+name, strings.NewReader(`{}`))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := ts.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	narrow := mintToken(t, "narrow", []string{"notes:re*"}, []string{"."}, []string{"."}, time.Hour)
	code, body := post(narrow, "notes:read")
	assert.Equal(t, 200, code, body)
	for _, spelling := range []string{"notes:remove", "notes_remove", "notes:rm"} {
		code, body = post(narrow, spelling)
		assert.Equal(t, 404, code, "%s: %s", spelling, body)
		assert.NotContains(t, body, "ran rm", spelling)
	}
	owner := mintToken(t, "owner", []string{"notes:rm"}, []string{"."}, []string{"."}, time.Hour)
	code, body = post(owner, "notes:remove")
	assert.Equal(t, 200, code, body)
	assert.Contains(t, body, "ran rm")
}
