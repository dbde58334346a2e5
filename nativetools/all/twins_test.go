package all_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/schematest"
)

// TestEveryTwinHasTheAdapterSchema: a native tool that twins a legacy command takes the
// input schema the adapter derives from the command, byte for byte, and its annotations
// and effects (what `cmdbridge
// scaffold` writes a test for in each tool's package; the corpus checks every twin here
// once).
func TestEveryTwinHasTheAdapterSchema(t *testing.T) {
	twins := 0
	for _, n := range nativetools.Default.All() {
		c, ok := commands.Default.Lookup(n.Spec.Name)
		if !ok {
			continue // native-only
		}
		twins++
		t.Run(n.Spec.Name, func(t *testing.T) {
			want, err := adapter.Schema(c)
			require.NoError(t, err)
			wantJSON, err := json.Marshal(want)
			require.NoError(t, err)
			gotJSON, err := json.Marshal(n.Spec.InputSchema)
			require.NoError(t, err)
			assert.Equal(t, string(wantJSON), string(gotJSON))
			// The same effect: the kernel serves the adapter's annotations and effects
			// whatever the route, and a twin that declared less (a runs-code hint, a
			// destructive mode) would mislead whoever reads the native registry.
			spec, err := adapter.Spec(c)
			require.NoError(t, err)
			assert.Equal(t, spec.Annotations, n.Spec.Annotations, "annotations")
			assert.Equal(t, spec.Effects, n.Spec.Effects, "effects")
		})
	}
	assert.GreaterOrEqual(t, twins, 50, "the corpus has at least 50 migrated commands")
}

// TestEveryNativeToolDecodesFullInput: an input setting every property of a native tool's
// schema decodes into its Input type and comes back unchanged, so no property is
// dropped or renamed on the way to the handler.
func TestEveryNativeToolDecodesFullInput(t *testing.T) {
	for _, n := range nativetools.Default.All() {
		t.Run(n.Spec.Name, func(t *testing.T) {
			raw, err := json.Marshal(schematest.FullInput(n.Spec.InputSchema))
			require.NoError(t, err)
			v, err := n.Decode(raw)
			require.NoError(t, err)
			back, err := json.Marshal(v)
			require.NoError(t, err)
			assert.JSONEq(t, string(raw), string(back))
		})
	}
}
