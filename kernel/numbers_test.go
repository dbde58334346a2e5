package kernel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func TestIntegersAreDecodedExactly(t *testing.T) {
	k, _ := newKernel(t, &probe{})
	for _, n := range []string{"9007199254740993", "9223372036854775807", "-9223372036854775808", "12"} {
		res := k.Call(context.Background(), req("test:echo", `{"count":`+n+`}`))
		require.True(t, res.Output.Success, "%s: %+v", n, res.Output.Error)
		b, err := json.Marshal(res.Output.Data)
		require.NoError(t, err)
		assert.Equal(t, `{"count":`+n+`}`, string(b), "%s came back changed", n)
	}
	for _, bad := range []string{`{"count":1.5}`, `{"count":9223372036854775808}`, `{"count":1} {}`, `{"count":1}x`} {
		res := k.Call(context.Background(), req("test:echo", bad))
		require.False(t, res.Output.Success, "%s accepted", bad)
		assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code, bad)
	}
}
