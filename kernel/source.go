package kernel

import "github.com/cmdbridge/cmdbridge/tool"

// Kinds of Source: what implements a tool, and so which lanes can run it.
const (
	// SourceCommand is a legacy command: the adapter and subprocess lanes run it (the
	// sandbox lane too, inside bwrap).
	SourceCommand = "command"
	// SourceNative is a native tool: the native lane runs it (the sandbox lane too).
	SourceNative = "native"
)

// Source is one implementation of a tool as the kernel's registry sees it, whatever
// runs it: which kind it is, its name and aliases, its domain, and its spec. The kernel
// knows tools only this way; what runs them is its lanes' business (Config.Lanes), and
// package kernel/assemble describes a host's command and native registries as Sources.
// A native Source with a command's exact name is that command's migrated
// implementation; the tool's route picks which one serves.
type Source struct {
	// Kind is SourceCommand or SourceNative.
	Kind string
	// Name is the tool's canonical name; Aliases are further spellings that resolve to
	// it (a command tree's aliases).
	Name    string
	Aliases []string
	// Domain is the tool's domain when its spec names none.
	Domain string
	// Spec describes the implementation; an error makes the tool unavailable (listed
	// with the reason, every call refused) without failing New.
	Spec func() (tool.Spec, error)
}
