package kernel

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func TestSpeakUsageRewrites(t *testing.T) {
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{"stat":{"type":"boolean"},
		"name_only":{"type":"boolean"},"phase":{"type":"integer"},"initiative":{"type":"string"},
		"command":{"type":"array","items":{"type":"string"}},"wu":{"type":"string"}}}`), &s))
	for _, tc := range []struct{ in, want string }{
		{"flags --stat and --name-only cannot be used together", "stat and name_only cannot be given together"},
		{"flag --phase requires --initiative", "phase requires initiative"},
		{"missing required flag --wu", "wu is required"},
		{"missing required argument COMMAND", "command is required"},
		{"one of --wu, --initiative is required", "one of wu, initiative is required"},
		{`invalid value "x" for --wu: expected WU-<number>`, `invalid value "x" for wu: expected WU-<number>`},
		// Words that are not inputs of this tool stay.
		{"unknown flag --nope", "unknown flag --nope"},
		{"missing required argument REF", "missing required argument REF"},
		{"invalid environment variable DELIVERY_NOW: not a timestamp", "invalid environment variable DELIVERY_NOW: not a timestamp"},
	} {
		out := speakUsage(&s, tool.FailDetails(tool.CodeUsage, map[string]any{"k": 1}, "%s", tc.in))
		assert.Equal(t, tc.want, out.Error.Message, tc.in)
		d := out.Error.Details.(map[string]any)
		assert.Equal(t, 1, d["k"], "details are kept")
		if tc.want != tc.in {
			assert.Equal(t, tc.in, d["cli_message"])
		} else {
			assert.NotContains(t, d, "cli_message")
		}
	}
	// Other codes, and details the kernel cannot extend, pass unchanged.
	other := tool.Fail(tool.CodeNotFound, "flag --wu requires --initiative")
	assert.Equal(t, other, speakUsage(&s, other))
	odd := tool.FailDetails(tool.CodeUsage, []string{"x"}, "missing required flag --wu")
	assert.Equal(t, "missing required flag --wu", speakUsage(&s, odd).Error.Message)
}
