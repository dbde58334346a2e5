package mcp

import (
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdbridge/cmdbridge/tool"
)

// StdinMetaKey is the _meta key of a tools/call request carrying the tool's standard
// input, a string (for commands that read a file argument "-"). The kernel bounds it
// (Config.MaxStdin) and records its hash in the receipt.
const StdinMetaKey = "cmdbridge/stdin"

// requestedStdin reads StdinMetaKey; a value that is not a string is an INVALID_INPUT
// result, refused before the kernel.
func requestedStdin(meta sdkmcp.Meta) ([]byte, *tool.Output) {
	v, ok := meta[StdinMetaKey]
	if !ok || v == nil {
		return nil, nil
	}
	s, ok := v.(string)
	if !ok {
		out := tool.FailDetails(tool.CodeInvalidInput, map[string]any{"meta": StdinMetaKey},
			"_meta %q must be a string, not %T", StdinMetaKey, v)
		return nil, &out
	}
	return []byte(s), nil
}
