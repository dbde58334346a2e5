package delivery

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/internal/golden"
	"github.com/cmdbridge/cmdbridge/tool"
)

const validWU = `id: WU-12
title: Add health endpoint
lane: 'Core: API'
type: feature
status: in_progress
priority: P1
created: 2026-03-02
description: Expose GET /healthz returning build info so the load balancer can probe instances.
acceptance:
  - GET /healthz returns 200 with version and commit
code_paths:
  - internal/api/health.go
tests:
  manual:
    - curl localhost:8080/healthz
  unit:
    - internal/api/health_test.go
  e2e: []
exposure: api
notes:
  - first
  - second
baseline_main_sha: abc123
`

func TestNormalizeStatusAndTransitions(t *testing.T) {
	norm := map[string]string{"": "ready", "todo": "ready", "backlog": "ready", "ready": "ready", "in_progress": "in_progress",
		"blocked": "blocked", "completed": "done", "done": "done", "cancelled": "closed", "abandoned": "closed",
		"deferred": "closed", "closed": "closed", "superseded": "closed", "weird": "weird"}
	for in, want := range norm {
		assert.Equal(t, want, NormalizeStatus(in), in)
	}
	allowed := []struct {
		from, to string
		ok       bool
	}{
		{"ready", "in_progress", true}, {"ready", "done", false}, {"in_progress", "blocked", true},
		{"in_progress", "waiting", true}, {"in_progress", "done", true}, {"in_progress", "ready", true},
		{"blocked", "in_progress", true}, {"blocked", "done", true}, {"blocked", "ready", false},
		{"waiting", "done", true}, {"done", "in_progress", false}, {"closed", "ready", false},
	}
	for _, a := range allowed {
		assert.Equal(t, a.ok, CanTransition(a.from, a.to), "%s→%s", a.from, a.to)
	}
	err := CheckTransition("WU-1", "done", "in_progress")
	assert.Equal(t, tool.CodeInvalidTransition, CodeOf(err))
}

func TestParseWUTypedView(t *testing.T) {
	w, err := ParseWU("docs/tasks/wu/WU-12.yaml", []byte(validWU))
	require.NoError(t, err)
	assert.Equal(t, "WU-12", w.ID)
	assert.Equal(t, 12, w.Number())
	assert.Equal(t, "Core: API", w.Lane)
	assert.Equal(t, "in_progress", w.NormStatus())
	assert.Equal(t, "2026-03-02", w.Created)
	assert.Equal(t, []string{"internal/api/health.go"}, w.CodePaths)
	assert.Equal(t, Tests{Manual: []string{"curl localhost:8080/healthz"}, Unit: []string{"internal/api/health_test.go"}, E2E: []string{}}, w.Tests)
	assert.Equal(t, "first\nsecond", w.Notes, "legacy list notes are joined")
	assert.Empty(t, ValidateStrict(w, 50))

	_, err = ParseWU("x.yaml", []byte("id: [oops\n"))
	assert.Equal(t, tool.CodeValidation, CodeOf(err))
	_, err = ParseWU("x.yaml", []byte("- a\n"))
	assert.Equal(t, tool.CodeValidation, CodeOf(err))
}

func TestAcceptanceMapForm(t *testing.T) {
	w, err := ParseWU("x", []byte("id: WU-1\ntitle: t\nlane: l\ncreated: 2026-01-01\ndescription: d\nacceptance:\n  api: [a, b]\n  ui: [c]\n"))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, w.Acceptance)
	assert.Equal(t, []AcceptanceGroup{{"api", []string{"a", "b"}}, {"ui", []string{"c"}}}, w.AcceptanceGroups)
	assert.Empty(t, ValidateStructure(w))
}

func TestValidateStructure(t *testing.T) {
	base := "id: WU-1\ntitle: t\nlane: l\ncreated: 2026-01-01\ndescription: ''\nacceptance: []\n"
	cases := []struct {
		name, yaml, want string
	}{
		{"valid minimal", base, ""},
		{"missing title", "id: WU-1\nlane: l\ncreated: 2026-01-01\ndescription: ''\nacceptance: []\n", "title is required"},
		{"bad id", "id: WU-x\ntitle: t\nlane: l\ncreated: 2026-01-01\ndescription: ''\nacceptance: []\n", `id "WU-x" must match WU-<number>`},
		{"empty lane", "id: WU-1\ntitle: t\nlane: ' '\ncreated: 2026-01-01\ndescription: ''\nacceptance: []\n", "lane must not be empty"},
		{"bad type", base + "type: epic\n", `type "epic" must be one of`},
		{"bad status", base + "status: wip\n", `status "wip" is not a known status`},
		{"bad priority", base + "priority: P5\n", "priority"},
		{"bad created", "id: WU-1\ntitle: t\nlane: l\ncreated: March\ndescription: ''\nacceptance: []\n", "must be a YYYY-MM-DD date"},
		{"missing acceptance", "id: WU-1\ntitle: t\nlane: l\ncreated: 2026-01-01\ndescription: ''\n", "acceptance is required"},
		{"code_paths not a list", base + "code_paths: x\n", "code_paths: expected a list"},
		{"bad phase", base + "phase: 0\n", "phase must be an integer ≥ 1"},
		{"bad blocked_by", base + "blocked_by: [X-1]\n", `blocked_by entry "X-1" must be a WU id`},
		{"bool type", base + "requires_review: maybe\n", "requires_review must be a boolean"},
		{"bad exposure", base + "exposure: web\n", `exposure "web"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := ParseWU("x", []byte(tc.yaml))
			require.NoError(t, err)
			errs := ValidateStructure(w)
			if tc.want == "" {
				assert.Empty(t, errs)
				return
			}
			require.NotEmpty(t, errs)
			assert.Contains(t, errs[0], tc.want)
		})
	}
}

func TestValidateStrict(t *testing.T) {
	long := "This description is comfortably longer than fifty characters in total."
	base := "id: WU-1\ntitle: t\nlane: l\ncreated: 2026-01-01\n"
	cases := []struct {
		name, yaml string
		want       []string
	}{
		{"all good", base + "description: " + long + "\nacceptance: [a]\nexposure: api\ncode_paths: [x]\n", nil},
		{"short description", base + "description: short\nacceptance: [a]\nexposure: api\ncode_paths: [x]\n", []string{"description must be at least 50 characters (has 5)"}},
		{"no acceptance", base + "description: " + long + "\nacceptance: []\nexposure: api\ncode_paths: [x]\n", []string{"acceptance must have at least one item"}},
		{"placeholders", base + "description: '[PLACEHOLDER] " + long + "'\nacceptance: ['[PLACEHOLDER]']\nexposure: api\ncode_paths: [x]\n", []string{"description contains [PLACEHOLDER]", "acceptance contains [PLACEHOLDER]"}},
		{"no exposure, no code paths", base + "description: " + long + "\nacceptance: [a]\n", []string{"exposure is required", "code_paths must not be empty"}},
		{"documentation needs no code paths", base + "type: documentation\ndescription: " + long + "\nacceptance: [a]\nexposure: documentation\n", nil},
		{"prototype exempt", base + "type: prototype\ndescription: x\nacceptance: []\n", nil},
		{"prototype still structural", "id: WU-1\ntitle: t\nlane: l\ntype: prototype\ndescription: x\nacceptance: []\n", []string{"created is required"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := ParseWU("x", []byte(tc.yaml))
			require.NoError(t, err)
			assert.Equal(t, tc.want, ValidateStrict(w, 50))
		})
	}
}

func TestNewWUKeyOrderAndEditRoundTrip(t *testing.T) {
	w := NewWU("docs/tasks/wu/", NewWUInput{ID: "WU-3", Title: "Add: thing", Lane: "Core: API", Type: "feature", Priority: "P2",
		Created: "2026-03-02", Acceptance: []string{"works"}, CodePaths: []string{"a.go"}, TestsUnit: []string{"a_test.go"}})
	w.Set("exposure", storage.StrNode("api"))
	out, err := w.Bytes()
	require.NoError(t, err)
	golden.Check(t, "new-wu.yaml", out)
	assert.Equal(t, "docs/tasks/wu/WU-3.yaml", w.Path)

	// Round trip through disk keeps unknown keys and order when a field is edited.
	root := t.TempDir()
	orig, err := ParseWU("docs/tasks/wu/WU-12.yaml", []byte(validWU))
	require.NoError(t, err)
	orig.Set("status", storage.StrNode("blocked"))
	orig.Set("blocked_reason", storage.StrNode("waiting on infra"))
	require.NoError(t, WriteWU(root, orig))
	data, err := os.ReadFile(filepath.Join(root, "docs/tasks/wu/WU-12.yaml"))
	require.NoError(t, err)
	golden.Check(t, "edited-wu.yaml", data)
}

func newWorkspace(t *testing.T) *Workspace {
	t.Helper()
	root := realTemp(t)
	writeFile(t, filepath.Join(root, ConfigFile), "id: t\n")
	ws, err := Load(root, root)
	require.NoError(t, err)
	return ws
}

func TestNextWUIDUsesYAMLStampsAndEvents(t *testing.T) {
	ws := newWorkspace(t)
	id, err := NextWUID(ws)
	require.NoError(t, err)
	assert.Equal(t, "WU-1", id)

	writeFile(t, ws.Abs("docs/tasks/wu/WU-3.yaml"), "id: WU-3\n")
	writeFile(t, ws.Abs("docs/tasks/wu/notes.yaml"), "x: 1\n")
	id, _ = NextWUID(ws)
	assert.Equal(t, "WU-4", id)

	require.NoError(t, WriteStamp(ws.Root, "WU-7", "t", "2026-01-01"))
	id, _ = NextWUID(ws)
	assert.Equal(t, "WU-8", id)

	require.NoError(t, AppendEvents(ws.Root, Event{Type: EventCreate, WUID: "WU-10", Timestamp: "2026-01-01T00:00:00.000Z", Lane: "l", Title: "t"}))
	id, _ = NextWUID(ws)
	assert.Equal(t, "WU-11", id)

	files, err := ListWUs(ws)
	require.NoError(t, err)
	require.Len(t, files, 1)
	assert.Equal(t, "WU-3", files[0].ID)

	_, err = ReadWU(ws, "WU-99")
	assert.Equal(t, tool.CodeNotFound, CodeOf(err))
}

func TestStamp(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, WriteStamp(root, "WU-12", "Add health endpoint", "2026-03-02"))
	data, err := os.ReadFile(filepath.Join(root, ".lumenflow/stamps/WU-12.done"))
	require.NoError(t, err)
	assert.Equal(t, "WU WU-12 \u2014 Add health endpoint\nCompleted: 2026-03-02\n", string(data))
	assert.True(t, StampExists(root, "WU-12"))
	assert.False(t, StampExists(root, "WU-13"))
	assert.Equal(t, "2026-03-02", StampDate(root, "WU-12"))
	ids, err := StampIDs(root)
	require.NoError(t, err)
	assert.Equal(t, []string{"WU-12"}, ids)
}

func TestAbsentTypeAndPriorityReadAsDefaults(t *testing.T) {
	w, err := ParseWU("docs/tasks/wu/WU-7.yaml", []byte("id: WU-7\ntitle: T\nlane: L\ncreated: 2026-01-01\ndescription: d\nacceptance: []\n"))
	require.NoError(t, err)
	assert.Equal(t, "feature", w.Type)
	assert.Equal(t, "P2", w.Priority)
	// A present but empty value is kept, so structural validation still sees it.
	w, err = ParseWU("docs/tasks/wu/WU-7.yaml", []byte("id: WU-7\ntitle: T\nlane: L\ntype: ''\npriority: P0\ncreated: 2026-01-01\ndescription: d\nacceptance: []\n"))
	require.NoError(t, err)
	assert.Equal(t, "", w.Type)
	assert.Equal(t, "P0", w.Priority)
	out, err := w.Bytes()
	require.NoError(t, err)
	assert.NotContains(t, string(out), "feature", "defaults are read, never written back")
}
