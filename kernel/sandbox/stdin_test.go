package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

// TestServeHandsTheRequestStdinToTheTool: the tool's stdin travels inside the framed
// request (the runner's own stdin is the request) and reaches run byte for byte.
func TestServeHandsTheRequestStdinToTheTool(t *testing.T) {
	for _, stdin := range [][]byte{nil, []byte("text\n"), {0, 0xff, '\n', '"'}} {
		body, err := json.Marshal(Request{ToolName: "fx:cat", Stdin: stdin})
		require.NoError(t, err)
		if len(stdin) == 0 {
			assert.NotContains(t, string(body), `"stdin"`, "an empty stdin is left out")
		}
		r, w, err := os.Pipe()
		require.NoError(t, err)
		var got []byte
		require.NoError(t, Serve(context.Background(), bytes.NewReader(body), w, func(ctx context.Context, req Request) tool.Output {
			got = req.Stdin
			return tool.OK(nil)
		}))
		res, err := io.ReadAll(r)
		require.NoError(t, err)
		r.Close()
		assert.Contains(t, string(res), `"success":true`)
		assert.Equal(t, string(stdin), string(got))
	}
}
