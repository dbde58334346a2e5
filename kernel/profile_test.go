package kernel_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func toolNames(k *kernel.Kernel) []string {
	var out []string
	for _, s := range k.Tools() {
		out = append(out, s.Name)
	}
	return out
}

func withView(v kernel.View) kopt { return func(c *assemble.Config) { c.View = v } }

func withProfiles(p map[string]kernel.Profile) kopt {
	return func(c *assemble.Config) { c.Profiles = p }
}

func TestViewListsOnlyItsTools(t *testing.T) {
	yes := true
	cases := []struct {
		name     string
		opts     []kopt
		want     []string
		wantView string
	}{
		{"zero view serves every tool", nil,
			[]string{"test:block", "test:destroy", "test:echo", "test:read", "test:sleep-r", "test:sleep-w", "test:write", "test:write-p", "wu:edit"}, ""},
		{"built-in read-only", []kopt{withView(kernel.View{Profile: "read-only"})},
			[]string{"test:block", "test:echo", "test:read", "test:sleep-r"}, "profile read-only"},
		{"built-in non-destructive", []kopt{withView(kernel.View{Profile: "non-destructive"})},
			[]string{"test:block", "test:echo", "test:read", "test:sleep-r", "test:sleep-w", "test:write", "test:write-p", "wu:edit"}, "profile non-destructive"},
		{"tools: globs and spellings, a union", []kopt{withView(kernel.View{Tools: []string{"test:sleep-*", "WU_EDIT"}})},
			[]string{"test:sleep-r", "test:sleep-w", "wu:edit"}, "tools test:sleep-*,WU_EDIT"},
		{"profile and tools intersect", []kopt{withView(kernel.View{Profile: "read-only", Tools: []string{"test:sleep-*"}})},
			[]string{"test:sleep-r"}, "profile read-only and tools test:sleep-*"},
		{"configured profile", []kopt{
			withProfiles(map[string]kernel.Profile{"edit": {Description: "edit", Tools: []string{"test:write", "test:read"}, Require: []string{"test_write"}}}),
			withView(kernel.View{Profile: "edit"})},
			[]string{"test:read", "test:write"}, "profile edit"},
		{"configured profile replaces a built-in one", []kopt{
			withProfiles(map[string]kernel.Profile{"read-only": {Description: "narrower", Tools: []string{"test:*"}, ReadOnly: &yes, Require: []string{"test:echo"}}}),
			withView(kernel.View{Profile: "read-only", Tools: []string{"test:e*", "test:r*"}})},
			[]string{"test:echo", "test:read"}, "profile read-only and tools test:e*,test:r*"},
		{"governance exclusion still hides inside a view", []kopt{
			func(c *assemble.Config) { c.Governance.Excluded = []string{"test:echo"} },
			withView(kernel.View{Profile: "read-only"})},
			[]string{"test:block", "test:read", "test:sleep-r"}, "profile read-only"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, _ := newKernel(t, &probe{}, tc.opts...)
			assert.Equal(t, tc.want, toolNames(k))
			assert.Equal(t, tc.wantView, k.ViewLabel())
			manifest, err := k.ManifestTools()
			require.NoError(t, err)
			var listed []string
			for _, m := range manifest {
				listed = append(listed, m.Name)
			}
			assert.Equal(t, tc.want, listed, "the manifest shows the same view")
		})
	}
}

func TestViewRefusesHiddenToolsByAnySpelling(t *testing.T) {
	k, ws := newKernel(t, &probe{}, withView(kernel.View{Profile: "read-only"}))
	ctx := context.Background()
	for _, spelling := range []string{"test:write", "test_write", "TestWrite", "software-delivery:test_write", "wu:edit", "test:destroy"} {
		res := k.Call(ctx, req(spelling, `{"path":"x"}`))
		require.NotNil(t, res.Output.Error, spelling)
		assert.Equal(t, tool.CodeToolDisabled, res.Output.Error.Code, spelling)
		assert.Contains(t, res.Output.Error.Message, "outside this kernel's view (profile read-only)", spelling)
	}
	res := k.Call(ctx, req("test_echo", `{"text":"hi"}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	batch := k.Batch(ctx, []kernel.Request{req("test:echo", `{}`), req("test:write", `{"path":"x"}`)})
	require.Len(t, batch, 2)
	assert.True(t, batch[0].Output.Success)
	require.NotNil(t, batch[1].Output.Error, "a batch goes through the same view")
	assert.Equal(t, tool.CodeToolDisabled, batch[1].Output.Error.Code)
	recs := receipts(t, ws)
	assert.Len(t, recs, 9, "refusals are on the record too")
}

func TestViewErrorsAtStart(t *testing.T) {
	profiles := map[string]kernel.Profile{
		"typo":     {Description: "typo", Tools: []string{"test:ech*", "tset:*"}},
		"misspelt": {Description: "misspelt", Tools: []string{"test:eccho"}},
		"badglob":  {Description: "bad", Tools: []string{"test:[e"}},
		"ghost":    {Description: "ghost", Tools: []string{"test:*"}, Require: []string{"test:ghost"}},
		"outside":  {Description: "outside", Tools: []string{"test:echo"}, Require: []string{"test:write"}},
		"gov":      {Description: "gov", Tools: []string{"test:*"}, Require: []string{"test:destroy"}},
		"ro-write": {Description: "empty", Tools: []string{"test:write"}, ReadOnly: ptr(true)},
	}
	cases := []struct {
		name string
		view kernel.View
		want string
	}{
		{"unknown profile lists the known ones", kernel.View{Profile: "reviw"},
			`unknown profile "reviw" (known: badglob, ghost, gov, misspelt, non-destructive, outside, read-only, ro-write, typo)`},
		{"glob matching nothing", kernel.View{Profile: "typo"}, `profile typo: "tset:*" matches no tool`},
		{"name that does not exist", kernel.View{Profile: "misspelt"}, `profile misspelt: unknown tool "test:eccho"`},
		{"invalid glob", kernel.View{Profile: "badglob"}, `profile badglob: "test:[e" is not a valid glob`},
		{"tools pattern matching nothing", kernel.View{Tools: []string{"nope:*"}}, `tools: "nope:*" matches no tool`},
		{"empty intersection", kernel.View{Profile: "read-only", Tools: []string{"test:write"}}, "profile read-only and tools test:write selects no tool"},
		{"filters leave nothing", kernel.View{Profile: "ro-write"}, "profile ro-write selects no tool"},
		{"required tool does not exist", kernel.View{Profile: "ghost"}, `profile ghost requires unknown tool "test:ghost"`},
		{"required tool outside the profile", kernel.View{Profile: "outside"}, "profile outside requires test:write, but profile outside leaves it out"},
		{"required tool cut by --tools", kernel.View{Profile: "gov", Tools: []string{"test:echo"}},
			"profile gov requires test:destroy, but profile gov and tools test:echo leaves it out"},
		{"required tool disabled by governance", kernel.View{Profile: "gov"},
			"profile gov requires test:destroy, but governance refuses it: disabled by configuration"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := assemble.Config{
				Config: kernel.Config{
					Workspace:  t.TempDir(),
					Evidence:   kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
					Profiles:   profiles,
					View:       tc.view,
					Governance: kernel.Governance{Disabled: []string{"test:destroy"}},
				},
				Native:   testRegistry(t, &probe{}),
				Commands: legacy.NewRegistry(),
				Lanes:    (&fakeAdapter{}).lanes(),
			}
			k, err := assemble.Kernel(cfg)
			if k != nil {
				_ = k.Close()
			}
			require.Error(t, err)
			assert.Equal(t, "kernel: "+tc.want, err.Error())
		})
	}
}

func TestProfileNames(t *testing.T) {
	assert.Equal(t, []string{"non-destructive", "read-only"}, kernel.ProfileNames(kernel.Config{}))
	cfg := kernel.Config{Profiles: map[string]kernel.Profile{"edit": {Description: "e"}, "read-only": {Description: "mine"}}}
	assert.Equal(t, []string{"edit", "non-destructive", "read-only"}, kernel.ProfileNames(cfg))
	assert.Equal(t, "mine", kernel.Profiles(cfg)["read-only"].Description)
}

func ptr[T any](v T) *T { return &v }
