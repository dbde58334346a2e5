package host

import (
	"encoding/json"
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/internal/apptree"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// levelFlag is a flag of a program's own type that takes a value.
type levelFlag struct{ name, value string }

func (f *levelFlag) Apply(set *flag.FlagSet) error { set.String(f.name, f.value, ""); return nil }
func (f *levelFlag) Names() []string               { return []string{f.name} }
func (f *levelFlag) IsSet() bool                   { return false }
func (f *levelFlag) String() string                { return "--" + f.name + " value" }
func (f *levelFlag) TakesValue() bool              { return true }
func (f *levelFlag) GetUsage() string              { return "log level" }
func (f *levelFlag) GetValue() string              { return f.value }
func (f *levelFlag) GetDefaultText() string        { return f.value }
func (f *levelFlag) GetEnvVars() []string          { return nil }

// switchFlag is a flag of a program's own type that takes none.
type switchFlag struct{ name string }

func (f *switchFlag) Apply(set *flag.FlagSet) error { set.Bool(f.name, false, ""); return nil }
func (f *switchFlag) Names() []string               { return []string{f.name} }
func (f *switchFlag) IsSet() bool                   { return false }
func (f *switchFlag) String() string                { return "--" + f.name }
func (f *switchFlag) TakesValue() bool              { return false }
func (f *switchFlag) GetUsage() string              { return "go fast" }
func (f *switchFlag) GetValue() string              { return "" }
func (f *switchFlag) GetDefaultText() string        { return "" }
func (f *switchFlag) GetEnvVars() []string          { return nil }

// TestUnknownFlagsWarnAsInProcess: a flag of a program's own type, described in the
// manifest, gives each tool that has it (its own, inherited or global) the warning the
// in-process line's schema derivation gives from the flag itself.
func TestUnknownFlagsWarnAsInProcess(t *testing.T) {
	newApp := func() *cli.App {
		return &cli.App{
			Name:  "prog",
			Flags: []cli.Flag{&levelFlag{name: "level", value: "info"}},
			Commands: []*cli.Command{
				{Name: "db", Flags: []cli.Flag{&switchFlag{name: "turbo"}}, Subcommands: []*cli.Command{
					{Name: "migrate", ArgsUsage: " ", Action: func(*cli.Context) error { return nil }},
				}},
				{Name: "plain", ArgsUsage: " ", Action: func(*cli.Context) error { return nil }},
			},
		}
	}
	reg := legacy.NewRegistry()
	require.NoError(t, reg.AddApp(newApp, legacy.TreeOptions{}))
	want := map[string][]string{}
	for _, c := range reg.All() {
		spec, err := adapter.Spec(c)
		require.NoError(t, err)
		if len(spec.Warnings) > 0 {
			want[c.Name] = spec.Warnings
		}
	}
	require.Len(t, want, 2, "the in-process derivation warns on both tools: %v", want)

	raw, err := json.Marshal(apptree.Describe(newApp(), nil))
	require.NoError(t, err)
	var tree apptree.Tree
	require.NoError(t, json.Unmarshal(raw, &tree))
	rebuilt := legacy.NewRegistry()
	require.NoError(t, rebuilt.AddApp(func() *cli.App { return apptree.Build(&tree, func([]string) cli.ActionFunc { return nil }) },
		legacy.TreeOptions{Warnings: unknownFlags(&tree)}))
	got := map[string][]string{}
	for _, c := range rebuilt.All() {
		spec, err := adapter.Spec(c)
		require.NoError(t, err)
		if len(spec.Warnings) > 0 {
			got[c.Name] = spec.Warnings
		}
	}
	assert.Equal(t, want, got, "the tools rebuilt from the manifest warn as the program's own")
}
