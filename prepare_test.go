package cmdbridge_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// dbkitPrepared is dbkit's Config: its constructor, status vouched for in-process, the
// effects of its commands, and
// Prepare doing what dbkit's main does around app.Run (load .env, print "Error: …" and
// exit 2). The expression is pasted into dbkit's package main.
const dbkitPrepared = `&host.Config{
	Config: cmdbridge.Config{
		Effects: map[string]cmdbridge.Effects{
			"{status,wait}":              {ReadOnly: true, Idempotent: true},
			"{new,create,dump,load}":     {},
			"{up,migrate,rollback,drop}": {Destructive: true},
		},
	},
	New:       newApp,
	InProcess: []string{"status"},
	Prepare: func(args []string) func(error) int {
		loadEnvFiles(args)
		return func(err error) int {
			if err == nil {
				return 0
			}
			fmt.Fprintf(os.Stderr, "Error: %s\n", err)
			return 2
		}
	},
}`

// TestPrepareRunsWhatMainDoes: a call that needs dbkit's .env and a call that fails give
// the same stdout, stderr and exit status on the in-process lane, on the subprocess lane
// and from the plain binary. The bridge runs from another directory than the workspace,
// so its own main loaded no .env: in-process, only Prepare can.
func TestPrepareRunsWhatMainDoes(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	plain := outsidetest.Build(t, "dbkit-plain", outsidetest.DBKitPlain(root))
	adopted := outsidetest.Build(t, "dbkit-prepared", outsidetest.DBKitHost(root, dbkitPrepared))

	workspace := func(t *testing.T, db bool) string {
		ws := t.TempDir()
		files := map[string]string{
			".env":            "DATABASE_URL=file:db.txt\nDBKIT_MIGRATIONS_DIR=migs\n",
			"migs/0001_a.sql": "-- a\n",
			"migs/0002_b.sql": "-- b\n",
		}
		if db {
			files["db.txt"] = "0001_a.sql\n"
		}
		for name, content := range files {
			require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(ws, name)), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644))
		}
		return ws
	}
	for _, tc := range []struct {
		name     string
		db       bool
		wantCode int
	}{
		{"needs .env", true, 0},
		{"fails", false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := workspace(t, tc.db)
			want := runIn(t, ws, "", plain.Exe("dbkit"), "status")
			require.Equal(t, tc.wantCode, want.ExitCode, "%+v", want)
			if tc.wantCode == 0 {
				require.Contains(t, want.Stdout, "[X] 0001_a.sql", "the plain binary read .env")
			} else {
				require.Equal(t, "Error: database db.txt does not exist\n", want.Stderr)
			}
			for _, lane := range []string{"adapter", "subprocess"} {
				t.Run(lane, func(t *testing.T) {
					r := runIn(t, t.TempDir(), "", adopted.Exe("dbkit"), "bridge", "--workspace", ws, "call", "status", "--input", "{}", "--lane", lane)
					var out callOutput
					require.NoError(t, json.Unmarshal([]byte(r.Stdout), &out), "%+v", r)
					assert.Equal(t, lane, out.Metadata["lane"], "status is vouched for in-process")
					var got run
					if tc.wantCode == 0 {
						require.True(t, out.Success, "%+v", out.Error)
						require.NoError(t, json.Unmarshal(out.Data, &got))
					} else {
						require.False(t, out.Success)
						require.Equal(t, "COMMAND_FAILED", out.Error.Code)
						require.NoError(t, json.Unmarshal(out.Error.Details, &got))
					}
					assert.Equal(t, want, got)
				})
			}
		})
	}
}

// TestAdoptDocShowsTheTestedPrepare: the dbkit lines docs/adopt.md prints (the Config
// given to host.Command) are the ones TestPrepareRunsWhatMainDoes builds and runs.
func TestAdoptDocShowsTheTestedPrepare(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("docs", "adopt.md"))
	require.NoError(t, err)
	var shown string
	for _, block := range strings.Split(string(doc), "```go\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if strings.Contains(block, "Prepare: func(args []string)") && strings.Contains(block, "loadEnvFiles") {
			_, cfg, ok := strings.Cut(block, "host.Command(")
			require.True(t, ok, "the block calls host.Command:\n%s", block)
			shown = strings.TrimSuffix(strings.TrimSpace(cfg), "))")
		}
	}
	require.NotEmpty(t, shown, "docs/adopt.md shows dbkit's Prepare")
	assert.Equal(t, strings.Fields(dbkitPrepared), strings.Fields(shown))
}
