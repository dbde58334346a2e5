package kernel_test

import (
	"context"
	"flag"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// oddFlag is a flag type from outside urfave/cli that takes a value.
type oddFlag struct{ name string }

func (f *oddFlag) String() string { return "--" + f.name }
func (f *oddFlag) Apply(set *flag.FlagSet) error {
	set.String(f.name, "", "")
	return nil
}
func (f *oddFlag) Names() []string        { return []string{f.name} }
func (f *oddFlag) IsSet() bool            { return false }
func (f *oddFlag) TakesValue() bool       { return true }
func (f *oddFlag) GetUsage() string       { return "an odd flag" }
func (f *oddFlag) GetValue() string       { return "" }
func (f *oddFlag) GetDefaultText() string { return "" }
func (f *oddFlag) GetEnvVars() []string   { return nil }

// adopterCommands are an outside team's commands, served through the real adapter: one
// the adapter maps only with fallbacks, one whose cmdbridge metadata is broken (its path
// input names no property), and one that maps cleanly.
func adopterCommands(t *testing.T, argv *[]string, mu *sync.Mutex) *legacy.Registry {
	r := legacy.NewRegistry()
	add := func(name, usage string, meta map[string]any, flags ...cli.Flag) {
		require.NoError(t, r.Add(legacy.Command{Name: name, Domain: "adopter",
			New: func() *cli.App {
				return &cli.App{Name: name, Usage: "adopter " + name, ArgsUsage: usage, Metadata: meta,
					Flags: append(flags, &cli.BoolFlag{Name: "json"})}
			},
			Main: func(context.Context) {
				mu.Lock()
				*argv = append([]string(nil), os.Args[1:]...)
				mu.Unlock()
			}}))
	}
	add("adopter:odd", "<project>|<user>/<project> {more}", map[string]any{legacy.MetaReadOnly: true}, &oddFlag{name: "tint"})
	add("adopter:broken", "<DIR>", map[string]any{legacy.MetaPaths: map[string]string{"nowhere": "read"}})
	add("adopter:fine", "FILE [FILE...]", map[string]any{legacy.MetaReadOnly: true, legacy.MetaPaths: map[string]string{"file": "read"}})
	require.NoError(t, r.Add(legacy.Command{Name: "adopter:panics", Main: func(context.Context) {},
		New: func() *cli.App { panic("no app today") }}))
	return r
}

func TestKernelStartsWhenSchemasDegrade(t *testing.T) {
	var argv []string
	var mu sync.Mutex
	ws := t.TempDir()
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Commands: adopterCommands(t, &argv, &mu),
		Native:   native.NewRegistry(),
	})
	require.NoError(t, err, "one odd or broken command must not sink the registry")
	t.Cleanup(func() { _ = k.Close() })

	specs := map[string]tool.Spec{}
	for _, s := range k.Tools() {
		specs[s.Name] = s
	}
	require.Len(t, specs, 4)
	require.Len(t, specs["adopter:panics"].Warnings, 1)
	assert.Equal(t, "unavailable, every call is refused: deriving its spec panicked: no app today", specs["adopter:panics"].Warnings[0])

	odd := specs["adopter:odd"]
	require.Len(t, odd.Warnings, 2)
	assert.Contains(t, odd.Warnings[0], "flag --tint: flag type *kernel_test.oddFlag is not a urfave/cli v2 type")
	assert.Contains(t, odd.Warnings[1], `ArgsUsage "<project>|<user>/<project> {more}" is outside the positional grammar`)
	manifest, err := k.ManifestTools()
	require.NoError(t, err)
	for _, m := range manifest {
		assert.Equal(t, specs[m.Name].Warnings, m.Warnings, "the manifest carries %s's warnings", m.Name)
	}
	assert.Equal(t, []string{"tint", "args"}, odd.InputSchema.PropertyOrder)

	broken := specs["adopter:broken"]
	require.Len(t, broken.Warnings, 1)
	assert.Contains(t, broken.Warnings[0], "unavailable, every call is refused")
	assert.Contains(t, broken.Warnings[0], "nowhere")
	assert.True(t, broken.Annotations.DestructiveHint, "an unknown tool is assumed the worst")

	assert.Empty(t, specs["adopter:fine"].Warnings)

	// The degraded tool is callable: the fallback input reaches the command as
	// positionals, never as flags, and an item that would be an option is refused.
	res := k.Call(context.Background(), kernel.Request{Tool: "adopter:odd", Input: []byte(`{"tint":"red","args":["x","y"]}`),
		Caller: kernel.WorkspaceCaller("tester")})
	if res.Output.Error != nil {
		assert.NotEqual(t, tool.CodeInvalidInput, res.Output.Error.Code, res.Output.Error.Message)
		assert.NotEqual(t, tool.CodeToolDisabled, res.Output.Error.Code, res.Output.Error.Message)
	}
	mu.Lock()
	assert.Equal(t, []string{"--json", "--tint", "red", "--", "x", "y"}, argv)
	mu.Unlock()
	res = k.Call(context.Background(), kernel.Request{Tool: "adopter:odd", Input: []byte(`{"args":["y","-x"]}`), Caller: kernel.WorkspaceCaller("tester")})
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code)
	assert.Equal(t, "/args/1", res.Output.Error.Details.(map[string]any)["path"])

	// Its schema still refuses what it does not describe.
	res = k.Call(context.Background(), kernel.Request{Tool: "adopter:odd", Input: []byte(`{"args":"y"}`), Caller: kernel.WorkspaceCaller("tester")})
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code)

	// The unavailable tool is listed but refuses every call, with the reason.
	res = k.Call(context.Background(), kernel.Request{Tool: "adopter:broken", Input: []byte(`{}`), Caller: kernel.WorkspaceCaller("tester")})
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeToolDisabled, res.Output.Error.Code)
	assert.Contains(t, res.Output.Error.Message, "its spec could not be derived")
	assert.Equal(t, evidence.StatusRefused, res.Receipt.Status)
}

func TestKernelStillRefusesBrokenConfiguration(t *testing.T) {
	r := legacy.NewRegistry()
	for _, name := range []string{"adopter:dup", "adopter_dup"} {
		require.NoError(t, r.Add(legacy.Command{Name: name, New: func() *cli.App { return &cli.App{} }, Main: func(context.Context) {}}))
	}
	_, err := assemble.Kernel(assemble.Config{Config: kernel.Config{Workspace: t.TempDir()}, Commands: r, Native: native.NewRegistry()})
	assert.ErrorContains(t, err, "adopter_dup", "two names for one tool are a configuration error, not a schema problem")
}
