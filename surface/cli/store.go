package cli

import (
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/tool"
)

// hostStore is the tool.Store of a command that serves many calls (serve, mcp, batch):
// native tools keep what outlives a call in it (the corpus's warm workspace index) for
// as long as the command runs. One-shot commands (call) have none, so a single call never
// pays for warming a cache. withStore puts it in the kernel's configuration; the caller
// closes the store after the kernel.
func hostStore() (*tool.Store, func(*assemble.Config)) {
	s := tool.NewStore()
	return s, func(cfg *assemble.Config) { cfg.Store = s }
}
