package adapter_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// An adopter's command says it runs workspace code through its app's metadata, as it
// says the rest (legacy.MetaRunsCode): the spec gets runsCodeHint and openWorldHint, and
// an effect may say which inputs run none.
func TestRunsCodeFromMetadata(t *testing.T) {
	newApp := func() *cli.App {
		return &cli.App{Name: "check", Usage: "run the project's checks",
			Flags:    []cli.Flag{&cli.BoolFlag{Name: "skip"}},
			Metadata: map[string]any{legacy.MetaRunsCode: true, legacy.MetaEffects: []tool.Effect{tool.WritesWhen(tool.IsSet("skip"))}},
			Action:   func(*cli.Context) error { return nil }}
	}
	spec, err := adapter.Spec(legacy.Command{Name: "check", New: newApp})
	require.NoError(t, err)
	assert.True(t, spec.Annotations.RunsCodeHint)
	assert.True(t, spec.Annotations.OpenWorldHint, "running workspace code reaches beyond the workspace's data")
	a, _ := spec.EffectOf(map[string]any{})
	assert.Equal(t, "runs_code", a.Kind())
	a, _ = spec.EffectOf(map[string]any{"skip": true})
	assert.Equal(t, "write", a.Kind())
}
