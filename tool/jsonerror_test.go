package tool_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/tool"
)

func TestDescribeJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"id":"WU-1"}`, ""},
		{` {}` + "\n", ""},
		{``, "empty input, expected a JSON object such as {}"},
		{`{"id":`, "line 1, column 7: unexpected end of input, expected the object to continue and close with }"},
		{"{\n  \"id\": \"WU-1\",\n  oops\n}", "line 3, column 3: invalid character 'o' looking for beginning of object key string"},
		{`[1,2]`, "line 1, column 1: a JSON array, expected an object such as {}"},
		{`null`, "line 1, column 1: a JSON null, expected an object such as {}"},
		{`{} {}`, "line 1, column 4: data after the object, expected the end of input"},
	} {
		assert.Equal(t, c.want, tool.DescribeJSON([]byte(c.in)), "%q", c.in)
	}
}
