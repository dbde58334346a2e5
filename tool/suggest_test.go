package tool_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/tool"
)

func TestSuggest(t *testing.T) {
	names := []string{"wu:status", "wu:create", "tools", "token", "id", "initiative"}
	for _, c := range []struct{ typed, want string }{
		{"wu:stauts", "wu:status"},
		{"WU_STATUS", "wu:status"},
		{"tols", "tools"},
		{"idd", "id"},
		{"tokne", "token"},
		{"zzzzzz", ""},
		{"x", ""},
	} {
		assert.Equal(t, c.want, tool.Suggest(c.typed, names), c.typed)
	}
	assert.Equal(t, ` (did you mean "wu:status"?)`, tool.DidYouMean("wu:stauts", names))
	assert.Empty(t, tool.DidYouMean("nothing-near", names))
}
