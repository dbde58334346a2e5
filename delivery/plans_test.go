package delivery

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlanTemplateSectionsAndPromote(t *testing.T) {
	text := PlanTemplate("WU-1", "Health", "2026-03-01")
	assert.Contains(t, text, "# WU-1 Plan - Health\n\nCreated: 2026-03-01\n\n## Goal\n\n<!-- -->\n\n## Scope\n")
	assert.Contains(t, text, "## Open Questions\n\n<!-- -->\n\n## References\n\n- ID: WU-1\n- Created: 2026-03-01\n")
	assert.Len(t, PlanCompleteness(text), 3)

	replaced, err := ReplacePlanSection(text, "Goal", "Ship the endpoint")
	require.NoError(t, err)
	assert.Contains(t, replaced, "## Goal\n\nShip the endpoint\n\n## Scope\n")

	appended, err := AppendPlanSection(replaced, "Goal", "and document it")
	require.NoError(t, err)
	assert.Contains(t, appended, "## Goal\n\nShip the endpoint\nand document it\n\n## Scope\n")

	atEOF, err := AppendPlanSection(text, "References", "- Extra")
	require.NoError(t, err)
	assert.True(t, len(atEOF) > 0 && atEOF[len(atEOF)-len("- Created: 2026-03-01\n- Extra\n"):] == "- Created: 2026-03-01\n- Extra\n")

	_, err = ReplacePlanSection(text, "Nope", "x")
	assert.Equal(t, "NOT_FOUND", CodeOf(err))
	_, err = AppendPlanSection(text, "Nope", "x")
	assert.Equal(t, "NOT_FOUND", CodeOf(err))

	promoted, changed := PromotePlan(text, "2026-03-02")
	assert.True(t, changed)
	assert.Contains(t, promoted, "Created: 2026-03-01\nStatus: approved\nApproved: 2026-03-02\n\n## Goal")
	again, changed := PromotePlan(promoted, "2026-03-03")
	assert.False(t, changed)
	assert.Equal(t, promoted, again)
	top, changed := PromotePlan("# x\n", "2026-03-02")
	assert.True(t, changed)
	assert.Equal(t, "Status: approved\nApproved: 2026-03-02\n# x\n", top)
}

func TestPlanCompleteness(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"complete", "## Goal\nA real goal here\n## Scope\nAll of the API\n## Approach\nOne step at a time\n", nil},
		{"comments do not count", "## Goal\n<!-- a long comment line -->\nshort\n## Scope\nAll of the API\n## Approach\nOne step at a time\n",
			[]string{"section Goal needs at least 10 characters of content (has 5)"}},
		{"missing", "## Goal\nA real goal here\n## Scope\nAll of the API\n",
			[]string{"section Approach is missing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, PlanCompleteness(tt.text))
		})
	}
}

func TestResolvePlanRef(t *testing.T) {
	ws := &Workspace{Root: t.TempDir(), Config: DefaultConfig()}
	tests := []struct {
		ref, rel, file, code string
	}{
		{ref: "lumenflow://plans/WU-1-plan.md", rel: "docs/plans/WU-1-plan.md", file: "WU-1-plan.md"},
		{ref: "docs/plans/INIT-2-plan.md", rel: "docs/plans/INIT-2-plan.md", file: "INIT-2-plan.md"},
		{ref: "x.md", rel: "docs/plans/x.md", file: "x.md"},
		{ref: "docs/other/x.md", code: "VALIDATION"},
		{ref: "lumenflow://plans/../x.md", code: "VALIDATION"},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			rel, file, err := ResolvePlanRef(ws, tt.ref)
			if tt.code != "" {
				assert.Equal(t, tt.code, CodeOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.rel, rel)
			assert.Equal(t, tt.file, file)
		})
	}
	_, err := ReadPlan(ws, "docs/plans/x.md")
	assert.Equal(t, "NOT_FOUND", CodeOf(err))
	require.NoError(t, WritePlan(ws, "docs/plans/x.md", "hi\n"))
	got, err := os.ReadFile(filepath.Join(ws.Root, "docs/plans/x.md"))
	require.NoError(t, err)
	assert.Equal(t, "hi\n", string(got))
}
