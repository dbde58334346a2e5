package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// stampApp is a v2 program without subcommands that declares itself in its Metadata:
// its effects (destructive, read-only on a dry run), its positional's choices and
// description, a rule between inputs, a path it writes.
func stampApp() *cli.App {
	return &cli.App{
		Name: "stamp", Usage: "stamp a file", ArgsUsage: "<kind>",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "say what would be stamped"},
			&cli.StringFlag{Name: "out", Usage: "where the stamp goes"},
			&cli.StringFlag{Name: "by", Usage: "who stamps"},
			&cli.StringFlag{Name: "as", Usage: "stamp on behalf of"},
		},
		Metadata: map[string]any{
			legacy.MetaDestructive:     true,
			legacy.MetaIdempotent:      true,
			legacy.MetaEffects:         []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
			legacy.MetaArgChoices:      map[string][]string{"kind": {"draft", "final"}},
			legacy.MetaArgDescriptions: map[string]string{"kind": "the stamp's kind"},
			legacy.MetaConstraints:     []tool.Constraint{{Kind: tool.Exclusive, Properties: []string{"by", "as"}}},
			legacy.MetaPaths:           map[string]string{"out": "write"},
			"program.own":              func() {}, // the program's own key: not described, not needed
		},
		Action: func(c *cli.Context) error {
			fmt.Fprintln(c.App.Writer, "stamped", c.Args().First())
			return nil
		},
	}
}

// TestV2ThroughTheBoundaryAsFromTheApp: a v2 app served through the framework boundary
// (described by V2, rebuilt, run by V2's Run: what Command and Main do now) gives every
// tool the spec, tier, package and run it had when the app was served from itself, for
// a command tree and for a program without subcommands that declares its effects,
// choices, rules and paths in its Metadata.
func TestV2ThroughTheBoundaryAsFromTheApp(t *testing.T) {
	cfg := Config{Config: cmdbridge.Config{Effects: map[string]cmdbridge.Effects{"notes:*": {ReadOnly: true}}}, InProcess: []string{"*"}}
	for name, app := range map[string]func() *cli.App{"tree": treeApp, "one command": stampApp} {
		t.Run(name, func(t *testing.T) {
			c := serving{Config: cfg}
			if name == "one command" {
				c.Effects = nil
			}
			direct, err := c.host(app, app(), false, "/nonexistent/program")
			require.NoError(t, err)
			fw := V2(app)
			described, err := c.treeHost(fw.Describe(), restoring(fw), false, "/nonexistent/program")
			require.NoError(t, err)

			want, got := direct.Commands.All(), described.Commands.All()
			require.Equal(t, len(want), len(got))
			require.NotEmpty(t, want)
			for i := range want {
				w, g := want[i], got[i]
				assert.Equal(t, w.Name, g.Name)
				assert.Equal(t, w.Package, g.Package, w.Name)
				assert.NotEmpty(t, g.Package, w.Name)
				assert.Equal(t, w.Tier, g.Tier, w.Name)
				ws, err := adapter.Spec(w)
				require.NoError(t, err, w.Name)
				gs, err := adapter.Spec(g)
				require.NoError(t, err, g.Name)
				assert.Equal(t, ws, gs, w.Name)
			}
			assert.Equal(t, direct.Program, described.Program)
			assert.Equal(t, direct.Version, described.Version)
		})
	}
	// What the one-command program declared reached its spec.
	fw := V2(stampApp)
	h, err := serving{}.treeHost(fw.Describe(), restoring(fw), false, "/nonexistent/program")
	require.NoError(t, err)
	spec, err := adapter.Spec(h.Commands.All()[0])
	require.NoError(t, err)
	assert.True(t, spec.Annotations.DestructiveHint)
	assert.Len(t, spec.Effects, 1)
	assert.Equal(t, []any{"draft", "final"}, spec.InputSchema.Properties["kind"].Enum)
	assert.Equal(t, "the stamp's kind", spec.InputSchema.Properties["kind"].Description)
	assert.Len(t, spec.Paths, 1)
	rules, err := json.Marshal(spec.InputSchema)
	require.NoError(t, err)
	assert.Contains(t, string(rules), `"required":["by","as"]`, "the exclusive rule between by and as")
}

// treeApp is a small command tree of the kinds of flags v2 has.
func treeApp() *cli.App {
	return &cli.App{Name: "notes-v2", Version: "1.2.3", Flags: []cli.Flag{&cli.StringFlag{Name: "dir", Value: ".", EnvVars: []string{"NOTES_DIR"}}},
		Commands: []*cli.Command{{Name: "notes", Aliases: []string{"n"}, Subcommands: []*cli.Command{
			{Name: "list", ArgsUsage: " ", Flags: []cli.Flag{&cli.IntFlag{Name: "limit", Value: 10}, &cli.BoolFlag{Name: "all"}},
				Action: func(*cli.Context) error { return nil }},
			{Name: "add", ArgsUsage: "<title>", Flags: []cli.Flag{&cli.StringSliceFlag{Name: "tag"}, &cli.DurationFlag{Name: "remind"}, &cli.Float64Flag{Name: "weight", Value: 0.5}},
				Action: func(*cli.Context) error { return nil }},
		}}}}
}

// TestRestoringPutsGlobalsBack: an in-process run through the boundary puts back the
// framework's globals the run changed.
func TestRestoringPutsGlobalsBack(t *testing.T) {
	var exiter, printer = "program's", 1
	fw := fakeFramework{globals: []Global{Var("exiter", &exiter), Var("printer", &printer)}, run: func() error {
		exiter, printer = "changed by the run", 2
		return nil
	}}
	require.NoError(t, restoring(fw)(context.Background(), []string{"prog"}))
	assert.Equal(t, "program's", exiter)
	assert.Equal(t, 1, printer)
}

type fakeFramework struct {
	Framework
	globals []Global
	run     func() error
}

func (f fakeFramework) Run(context.Context, []string) error { return f.run() }
func (f fakeFramework) Globals() []Global                   { return f.globals }

// TestRunningAppIsDescribedNeverRun: the in-process line without Config.New serves the
// running app from its description only: every leaf stays on the subprocess lane and
// says why (set New); with a run (New given), the same leaves may run in-process.
func TestRunningAppIsDescribedNeverRun(t *testing.T) {
	cfg := serving{Config: Config{InProcess: []string{"*"}}}
	desc := V2(treeApp).Describe()
	h, err := cfg.treeHost(desc, nil, true, "/nonexistent/program")
	require.NoError(t, err)
	require.NotEmpty(t, h.Commands.All())
	for _, c := range h.Commands.All() {
		assert.Equal(t, legacy.TierSubprocess, c.Tier, c.Name)
		assert.Contains(t, strings.Join(c.Findings, " "), "host.Config.New", c.Name)
	}
	h, err = cfg.treeHost(desc, restoring(V2(treeApp)), true, "/nonexistent/program")
	require.NoError(t, err)
	for _, c := range h.Commands.All() {
		assert.Equal(t, legacy.TierInProcess, c.Tier, c.Name)
	}
}
