package kernel_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/kernel"
)

// TestRedTeamApprovalShowsWhatRuns: the input a person is asked to approve shows every
// property however long one value is (a path hidden after a long first value was cut
// off the question before), and no character that changes how the text displays: a
// right-to-left override would show "../../etc/passwd" as something harmless.
func TestRedTeamApprovalShowsWhatRuns(t *testing.T) {
	long := strings.Repeat("a", 5000)
	r := kernel.ApprovalRequest{Input: json.RawMessage(`{"body":"` + long + `","path":"../../etc/passwd"}`)}
	shown := r.ShownInput(100)
	assert.Contains(t, shown, `path: "../../etc/passwd"`)
	assert.Contains(t, shown, "… (4902 more bytes)")
	assert.Less(t, len(shown), 200)

	r.Input = json.RawMessage(`{"path":"safe-` + "\u202e" + `dwssap/cte/../..","note":"a` + "\u2028" + `b\u0007"}`)
	shown = r.ShownInput(0)
	assert.Equal(t, "note: \"a\\u2028b\\u0007\"\npath: \"safe-\\u202Edwssap/cte/../..\"", shown)

	r.Input = json.RawMessage(`["not","an","object"]`)
	assert.Equal(t, `["not","an","object"]`, r.ShownInput(0))
	r.Input = json.RawMessage(`{}`)
	assert.Equal(t, "(no properties)", r.ShownInput(0))
}
