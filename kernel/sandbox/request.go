package sandbox

import (
	"encoding/json"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Scopes are the host paths a call may read and write, absolute and already resolved by
// the kernel (clean, symlinks of existing prefixes followed).
type Scopes struct {
	Read  []string `json:"read"`
	Write []string `json:"write"`
}

// Lanes a handler entry may name.
const (
	// LaneAdapter runs the legacy command in-process inside the runner.
	LaneAdapter = "adapter"
	// LaneNative runs the native tool inside the runner.
	LaneNative = "native"
)

// Entry says what the runner runs: a legacy command in-process (Lane "adapter", Command)
// or a native tool (Lane "native", Native).
type Entry struct {
	Lane    string `json:"lane"`
	Command string `json:"command,omitempty"`
	Native  string `json:"native,omitempty"`
}

// Request is the one document the runner reads on stdin.
type Request struct {
	ToolName      string          `json:"tool_name"`
	HandlerEntry  Entry           `json:"handler_entry"`
	Input         json.RawMessage `json:"input"`
	ScopeEnforced Scopes          `json:"scope_enforced"`
	// ReceiptID is the kernel's receipt id; the runner echoes it.
	ReceiptID string `json:"receipt_id"`
	// Workspace is the working directory inside the sandbox (the same path as on the
	// host); it must lie inside a scope. Empty means /tmp.
	Workspace string `json:"workspace"`
	// Env is the allowlisted environment the tool gets, on top of the fixed base
	// (PATH, HOME, LANG), which it cannot override.
	Env map[string]string `json:"env,omitempty"`
	// Network shares the host's network namespace.
	Network bool `json:"network"`
	// Hidden are directories inside the scopes that the call must not see (cmdbridge's
	// own state: keys, evidence, outbox): each is covered by an empty tmpfs.
	Hidden []string `json:"hidden,omitempty"`
	// Stdin is the tool's whole standard input (base64 in the document; absent when
	// empty). The runner's own stdin carries this request, so the tool's travels inside
	// it and the runner hands it to the tool (tool.Env.Stdin, or the adapter's os.Stdin).
	Stdin []byte `json:"stdin,omitempty"`
}

// resultDoc is the document the runner writes on the result descriptor.
type resultDoc struct {
	Output tool.Output `json:"output"`
}

// wireResult is resultDoc as the host reads it: data stays raw bytes, as the adapter lane
// hands it over.
type wireResult struct {
	Output *struct {
		Success  bool            `json:"success"`
		Data     json.RawMessage `json:"data"`
		Error    *tool.Error     `json:"error"`
		Metadata map[string]any  `json:"metadata"`
	} `json:"output"`
}
