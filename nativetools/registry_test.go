package nativetools_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/nativetools/schematest"
)

// TestEveryPropertyReachesHandler walks every registered tool's schema and proves that
// an input setting every property decodes into the handler's Input with nothing lost.
func TestEveryPropertyReachesHandler(t *testing.T) {
	for _, tl := range nativetools.Default.All() {
		t.Run(tl.Spec.Name, func(t *testing.T) {
			full := schematest.FullInput(tl.Spec.InputSchema)
			raw, err := json.Marshal(full)
			require.NoError(t, err)
			in, err := tl.Decode(raw)
			require.NoError(t, err)
			back, err := json.Marshal(in)
			require.NoError(t, err)
			var got map[string]any
			require.NoError(t, json.Unmarshal(back, &got))
			for prop, want := range full {
				assert.Equal(t, want, got[prop], "property %s", prop)
			}
		})
	}
}
