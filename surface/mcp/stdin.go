package mcp

import (
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdbridge/cmdbridge/tool"
)

// StdinMetaKey is the _meta key of a tools/call request carrying the tool's standard
// input, a string (for commands that read a file argument "-"). The kernel bounds it
// (Config.MaxStdin) and records its hash in the receipt.
const StdinMetaKey = "cmdbridge/stdin"

// requestedStdin reads StdinMetaKey; a value that is not a string is refused
// (INVALID_INPUT) before the kernel.
func requestedStdin(meta sdkmcp.Meta) ([]byte, *tool.Error) {
	v, ok := meta[StdinMetaKey]
	if !ok || v == nil {
		return nil, nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, tool.RefuseDetails(tool.CodeInvalidInput, map[string]any{"meta": StdinMetaKey},
			"_meta %q must be a string, not %T", StdinMetaKey, v)
	}
	return []byte(s), nil
}
