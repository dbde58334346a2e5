package tool_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func TestResolveEverySpelling(t *testing.T) {
	plain, err := tool.NewNames([]string{"wu:create", "wu:unlock-lane", "lane-lock:acquire", "gates"})
	require.NoError(t, err)
	_, ok := plain.Resolve("software-delivery:wu_create")
	assert.False(t, ok, "no pack prefix without a pack")
	names, err := plain.WithPack("software-delivery")
	require.NoError(t, err)
	cases := map[string]string{
		"wu:create":                   "wu:create",
		"wu_create":                   "wu:create",
		"wu-create":                   "wu:create",
		"WuCreate":                    "wu:create",
		"wuCreate":                    "wu:create",
		"software-delivery:wu_create": "wu:create",
		"software_delivery.wu-create": "wu:create",
		"wu_unlock_lane":              "wu:unlock-lane",
		"WuUnlockLane":                "wu:unlock-lane",
		"lane_lock_acquire":           "lane-lock:acquire",
		"GATES":                       "gates",
	}
	for spelling, want := range cases {
		got, ok := names.Resolve(spelling)
		assert.True(t, ok, spelling)
		assert.Equal(t, want, got, spelling)
	}
	for _, unknown := range []string{"wu:creat", "", "software-delivery", "software-delivery:"} {
		_, ok := names.Resolve(unknown)
		assert.False(t, ok, unknown)
	}
}

func TestNewNamesRejectsCollisions(t *testing.T) {
	_, err := tool.NewNames([]string{"wu:create", "wu-create"})
	assert.ErrorContains(t, err, "same name spelled differently")
	_, err = tool.NewNames([]string{"gates", "gates"})
	assert.ErrorContains(t, err, "registered twice")
	names, err := tool.NewNames([]string{"software-delivery"})
	require.NoError(t, err, "without a pack any name is free")
	_, err = names.WithPack("software-delivery")
	assert.ErrorContains(t, err, "reserved")
	_, err = tool.NewNames([]string{"::"})
	assert.ErrorContains(t, err, "no letters")
}

func TestMCPNameAndPropertyMapping(t *testing.T) {
	assert.Equal(t, "wu_unlock_lane", tool.MCPName("wu:unlock-lane"))
	assert.Equal(t, "code_paths", tool.PropertyName("code-paths"))
	assert.Equal(t, "code-paths", tool.FlagName("code_paths"))
	for _, flag := range []string{"no-strict", "id", "test-paths-unit", "json"} {
		assert.Equal(t, flag, tool.FlagName(tool.PropertyName(flag)))
	}
}

func TestCanonicalJSONSortsKeys(t *testing.T) {
	a, err := tool.CanonicalJSON(map[string]any{"b": 1, "a": []int{2}})
	require.NoError(t, err)
	b, err := tool.CanonicalJSON(struct {
		B int   `json:"b"`
		A []int `json:"a"`
	}{1, []int{2}})
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b))
	assert.JSONEq(t, `{"a":[2],"b":1}`, string(a))
}

func TestStemAndDomainFollowTheName(t *testing.T) {
	for name, want := range map[string][2]string{
		"wu:create":         {"wu_create", "wu"},
		"wu:infer-lane":     {"wu_infer_lane", "wu"},
		"lane-lock:acquire": {"lane_lock_acquire", "lane-lock"},
		"doctor":            {"doctor", "doctor"},
	} {
		assert.Equal(t, want[0], tool.Stem(name), name)
		assert.Equal(t, want[1], tool.Domain(name), name)
	}
}

func TestAliasesResolveToTheirTool(t *testing.T) {
	names, err := tool.NewNames([]string{"notes:rm", "notes:list", "notes:ls-remote", "tags:rm"})
	require.NoError(t, err)
	names, dropped := names.WithAliases(map[string]string{
		"notes:remove":   "notes:rm",
		"notes:ls":       "notes:list",
		"notes-ls":       "notes:list", // the same alias in another spelling: fine
		"notes:lsremote": "notes:list", // folds to notes:ls-remote, a tool's own name: the name wins
		"tags:remove":    "tags:rm",
		"x:del":          "notes:rm",
		"x-del":          "tags:rm",    // folds to x:del, for another tool: neither resolves
		"ghost":          "notes:gone", // no such tool
	})
	assert.Equal(t, []string{"ghost", "notes:lsremote", "x-del", "x:del"}, dropped)
	for spelling, want := range map[string]string{
		"notes:remove": "notes:rm", "NotesRemove": "notes:rm", "notes_ls": "notes:list",
		"tags:remove": "tags:rm", "notes:ls-remote": "notes:ls-remote", "notes:rm": "notes:rm",
	} {
		got, ok := names.Resolve(spelling)
		assert.True(t, ok, spelling)
		assert.Equal(t, want, got, spelling)
	}
	for _, none := range []string{"x:del", "ghost"} {
		_, ok := names.Resolve(none)
		assert.False(t, ok, none)
	}
	assert.Equal(t, []string{"notes:list", "notes:ls-remote", "notes:rm", "tags:rm"}, names.All(), "aliases are no names of their own")
}
