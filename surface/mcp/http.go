package mcp

import (
	"net/http"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdbridge/cmdbridge/kernel"
)

// HTTPHandler serves k's tools over the SDK's streamable HTTP transport, every call
// running as caller. Mount it at /mcp; authentication (which caller a request is) is
// the mounting server's job, done before this handler is reached. The SDK's DNS
// rebinding protection stays on: a request that arrives on a loopback address with a
// non-loopback Host header is refused.
func HTTPHandler(k *kernel.Kernel, caller kernel.Caller, opts ...Option) (http.Handler, error) {
	srv, err := NewServer(k, caller, opts...)
	if err != nil {
		return nil, err
	}
	return sdkmcp.NewStreamableHTTPHandler(func(*http.Request) *sdkmcp.Server { return srv }, nil), nil
}
