package ops

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestConfigGet(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name, key, text, value string
		set                    bool
		warnings               []string
	}{
		{"scalar", "id", "test\n", `"test"`, true, nil},
		{"mapping keeps order", "software_delivery.lanes.definitions.1",
			"name: Docs\nlock_policy: none\n", `{"name":"Docs","lock_policy":"none"}`, true, nil},
		{"not set", "software_delivery.git.push", "", `null`, false, []string{`key "software_delivery.git.push" is not set`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, notes, err := ConfigGet(f.ws, ConfigGetInput{Key: tc.key})
			require.NoError(t, err)
			assert.Equal(t, tc.set, data.Set)
			raw, err := json.Marshal(data.Value)
			require.NoError(t, err)
			assert.JSONEq(t, tc.value, string(raw))
			assert.Equal(t, tc.text, notes.Text)
			assert.Equal(t, tc.warnings, notes.Warnings)
		})
	}
	_, _, err := ConfigGet(f.ws, ConfigGetInput{Key: "nope.x"})
	requireCode(t, tool.CodeValidation, err)
}

func TestConfigSet(t *testing.T) {
	cases := []struct {
		name, key string
		code      string
	}{
		{"managed key", "lanes.x", tool.CodeValidation},
		{"unknown root", "nope", tool.CodeValidation},
		{"whole section", "software_delivery", tool.CodeValidation},
		{"empty segment", "control_plane..x", tool.CodeValidation},
		{"through a scalar", "software_delivery.lanes.definitions.x", tool.CodeValidation},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			_, _, err := ConfigSet(t.Context(), f.ws, f.rt, ConfigSetInput{Key: tc.key, Value: "1"})
			requireCode(t, tc.code, err)
			assert.Equal(t, testConfig, f.read(delivery.ConfigFile), "nothing is written on failure")
		})
	}
	t.Run("success", func(t *testing.T) {
		f := newFixture(t)
		data, notes, err := ConfigSet(t.Context(), f.ws, f.rt, ConfigSetInput{Key: "software_delivery.git.push", Value: "true"})
		require.NoError(t, err)
		assert.Equal(t, ConfigSetData{Key: "software_delivery.git.push", Value: true}, data)
		assert.Equal(t, "Set software_delivery.git.push = true", notes.Headline)
		assert.Contains(t, f.read(delivery.ConfigFile), "push: true")
		data, _, err = ConfigSet(t.Context(), f.ws, f.rt, ConfigSetInput{Key: "control_plane.ratio", Value: "0.5"})
		require.NoError(t, err)
		assert.Nil(t, data.Previous)
		assert.Equal(t, 0.5, data.Value)
		data, notes, err = ConfigSet(t.Context(), f.ws, f.rt, ConfigSetInput{Key: "control_plane.ratio", Value: "two words"})
		require.NoError(t, err)
		assert.Equal(t, 0.5, data.Previous)
		assert.Equal(t, "two words", data.Value)
		assert.Equal(t, "Set control_plane.ratio = two words", notes.Headline)
	})
}
