package adapter

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// adopterApp is a command as an adopter writes it with plain urfave/cli: aliases,
// a backtick placeholder, flag syntax in its texts, a flag-or-positional and rules
// declared in Metadata by flag name.
func adopterApp() *cli.App {
	return &cli.App{
		Name:      "deploy",
		Usage:     "Deploy a release (dry run unless --execute); -t picks the target",
		ArgsUsage: "[<RELEASE>] [<NOTE>]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "release", Aliases: []string{"r"}, Usage: "release to deploy (or the positional RELEASE)"},
			&cli.StringFlag{Name: "target", Aliases: []string{"t"}, Usage: "where to deploy (with --region-name)"},
			&cli.StringFlag{Name: "region-name", Usage: "region of -t"},
			&cli.PathFlag{Name: "config", Usage: "load settings from `FILE`"},
			&cli.BoolFlag{Name: "execute", Aliases: []string{"x"}, Usage: "really deploy (see also --mode=fast)"},
			&cli.StringFlag{Name: "mode", Usage: "fast or safe"},
			&cli.StringSliceFlag{Name: "skip-check", Usage: "check to skip (repeatable; --execute only)"},
			&cli.BoolFlag{Name: "json"},
		},
		Metadata: map[string]any{
			legacy.MetaConstraints: []tool.Constraint{
				{Kind: tool.Required, Properties: []string{"release"}},
				{Kind: tool.AnyOf, Properties: []string{"target", "config"}},
				{Kind: tool.Together, Properties: []string{"target", "region-name"}},
				{Kind: tool.Exclusive, Properties: []string{"config", "region_name"}},
				{Kind: tool.Requires, Properties: []string{"skip-check", "execute"}},
				{Kind: tool.Requires, Properties: []string{"mode", "execute"}, Values: []any{"fast"}},
			},
			legacy.MetaArgDescriptions: map[string]string{"note": "a note for the deploy log, see --mode"},
		},
		Action: func(*cli.Context) error { return nil },
	}
}

func adopterCommand() legacy.Command {
	return legacy.Command{Name: "deploy", Domain: "ops", New: adopterApp}
}

func TestDescriptionsSpeakTool(t *testing.T) {
	spec, err := Spec(adopterCommand())
	require.NoError(t, err)
	assert.Equal(t, "Deploy a release (dry run unless execute=true); target picks the target", spec.Description)
	want := map[string]string{
		"release":     "release to deploy",
		"target":      "where to deploy (with region_name)",
		"region_name": "region of target",
		"config":      "load settings from FILE",
		"execute":     "really deploy (see also mode=fast)",
		"mode":        "fast or safe",
		"skip_check":  "check to skip (repeatable; execute=true only)",
		"note":        "a note for the deploy log, see mode",
	}
	got := map[string]string{}
	for name, p := range spec.InputSchema.Properties {
		got[name] = p.Description
	}
	assert.Equal(t, want, got)
}

func TestSpeakLeavesUnknownWordsAlone(t *testing.T) {
	app := adopterApp()
	ps, warnings := params(app, "")
	require.Empty(t, warnings)
	v := newVocabulary(app, ps)
	for _, tc := range []struct{ in, want string }{
		{"as git log --since", "as git log --since"},               // not a flag of this app
		{"a <sha7> <subject> line", "a <sha7> <subject> line"},     // not positionals
		{"x-y --execute", "x-y execute=true"},                      // boolean flag
		{"(or the positional OTHER)", "(or the positional OTHER)"}, // not this app's positional
		{"see [<NOTE>] and <RELEASE>", "see note and release"},
		{"use -r or -x, not -q", "use release or execute=true, not -q"},
		{"--target=eu", "target=eu"},
		{"pass -- to stop", "pass -- to stop"},
	} {
		assert.Equal(t, tc.want, v.speak(tc.in), tc.in)
	}
	assert.Equal(t, "from FILE, not `B`", unquotePlaceholder("from `FILE`, not `B`"))
}

func TestConstraintsBecomeSchema(t *testing.T) {
	s, err := Schema(adopterCommand())
	require.NoError(t, err)
	assert.Equal(t, []string{"release"}, s.Required, "the flag-or-positional the command requires")
	require.NotNil(t, s.Not)
	var messages []string
	for _, r := range s.Not.AnyOf {
		messages = append(messages, r.Description)
	}
	assert.Equal(t, []string{
		"one of target, config is required",
		"target and region_name must be given together",
		"config and region_name cannot be given together",
		"skip_check requires execute",
		"execute is required when mode is fast",
	}, messages)
	// Some hosts refuse top-level anyOf, allOf and oneOf.
	assert.Nil(t, s.AnyOf)
	assert.Nil(t, s.AllOf)
	assert.Nil(t, s.OneOf)

	res, err := s.Resolve(nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		input string
		ok    bool
	}{
		{`{"release":"1","config":"c"}`, true},
		{`{"config":"c"}`, false},
		{`{"release":"1"}`, false},
		{`{"release":"1","target":"t"}`, false},
		{`{"release":"1","target":"t","region_name":"eu"}`, true},
		{`{"release":"1","config":"c","region_name":"eu","target":"t"}`, false},
		{`{"release":"1","config":"c","skip_check":["a"]}`, false},
		{`{"release":"1","config":"c","skip_check":[]}`, true},
		{`{"release":"1","config":"c","skip_check":["a"],"execute":false}`, false},
		{`{"release":"1","config":"c","skip_check":["a"],"execute":true}`, true},
		{`{"release":"1","config":"c","mode":"fast"}`, false},
		{`{"release":"1","config":"c","mode":"safe"}`, true},
		{`{"release":"1","config":"c","mode":"fast","execute":true}`, true},
	} {
		var v any
		require.NoError(t, json.Unmarshal([]byte(tc.input), &v))
		assert.Equal(t, tc.ok, res.Validate(v) == nil, tc.input)
	}
}

func TestConstraintErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		meta any
		want string
	}{
		{"unknown name", []tool.Constraint{{Kind: tool.AnyOf, Properties: []string{"target", "nope"}}}, `"nope" is not an input property`},
		{"unknown kind", []tool.Constraint{{Kind: "xor", Properties: []string{"target", "mode"}}}, `kind "xor"`},
		{"values on any_of", []tool.Constraint{{Kind: tool.AnyOf, Properties: []string{"target", "mode"}, Values: []any{"x"}}}, "only requires takes values"},
		{"wrong type", "target", "constraints must be a list"},
		{"requires one", []tool.Constraint{{Kind: tool.Requires, Properties: []string{"target"}}}, "wrong number of properties"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := legacy.Command{Name: "deploy", New: func() *cli.App {
				app := adopterApp()
				app.Metadata = map[string]any{legacy.MetaConstraints: tc.meta}
				return app
			}}
			_, err := Schema(c)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestConstraintsLeaveArgvAlone: rules only refuse; the argv of a valid input is what
// it was without them.
func TestConstraintsLeaveArgvAlone(t *testing.T) {
	argv, err := Argv(adopterCommand(), json.RawMessage(`{"release":"1","target":"t","region_name":"eu","execute":true,"skip_check":["a"]}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"--json", "--release", "1", "--target", "t", "--region-name", "eu", "--execute", "--skip-check", "a"}, argv)
}
