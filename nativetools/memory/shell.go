package memory

import (
	"context"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The legacy commands check argv before they open the workspace: typed values left to
// right, then missing required flags (commands/convention, spec §2.1). The native shells
// repeat those checks in the same order so that a bad input fails with the same code on
// every lane, even when no kernel validated it first (parity calls lanes directly).
// Properties whose "" differs from absent (`--wu=` is a usage error, a missing --wu is
// the session's WU) are pointers in the Input structs.

// checkWU rejects a present WU-typed property that is not WU-<number> (USAGE), as the
// command's WU flag does.
func checkWU(prop string, v *string) error {
	if v != nil && !delivery.ValidWUID(*v) {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected WU-<number>", *v, tool.FlagName(prop))
	}
	return nil
}

// checkEnum rejects a present choice property that is not one of choices (USAGE), ""
// included, as the command's enum flag does.
func checkEnum(prop string, v *string, choices []string) error {
	if v != nil && !slices.Contains(choices, *v) {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected one of %s", *v, tool.FlagName(prop), strings.Join(choices, ", "))
	}
	return nil
}

// checkAtLeast rejects a present integer property below lo (USAGE), as the command's
// bounded INT flag does.
func checkAtLeast(prop string, v *int64, lo int64) error {
	if v != nil && *v < lo {
		return delivery.Errorf(tool.CodeUsage, "invalid value \"%d\" for --%s: expected integer >= %d", *v, tool.FlagName(prop), lo)
	}
	return nil
}

// present is a required string property as a pointer: nil when it is "", which for a
// required flag is the same USAGE failure as absent.
func present(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

// requireFlag rejects an absent required property (USAGE), as a missing required flag.
func requireFlag(prop string, v *string) error {
	if v == nil {
		return delivery.Errorf(tool.CodeUsage, "missing required flag --%s", tool.FlagName(prop))
	}
	return nil
}

// firstErr returns the first non-nil error, so checks keep the command's order.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// value is *p, or "" when the property is absent.
func value(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// result is the Output of an operation: its data on success, its coded error otherwise,
// and its warnings in metadata either way (a warning met before a failure is still part
// of the call's output), listed as the adapter lists the envelope's warnings.
func result(data any, notes ops.Notes, err error) tool.Output {
	out := tool.OK(data)
	if err != nil {
		out = shell.Fail(err)
	}
	warnings := notes.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	return out.WithMeta("warnings", warnings)
}

// openWorkspace opens the call's workspace (§1.1: NO_WORKSPACE when there is none). The
// memory commands read no configuration section, so no keys are checked.
func openWorkspace(ctx context.Context, env *tool.Env) (*delivery.Workspace, error) {
	lookup := env.LookupEnv
	if lookup == nil {
		lookup = tool.EnvFromMap(nil)
	}
	return ops.OpenWorkspace(ctx, env.Dir, delivery.LookupEnv(lookup))
}

// readOrOpenWorkspace opens the call's workspace for a tool whose input decides whether it
// writes: through the host's warm index when this call only reads, from the disk (as
// openWorkspace) when it may write.
func readOrOpenWorkspace(ctx context.Context, env *tool.Env, readOnly bool) (*delivery.Workspace, error) {
	if readOnly {
		return shell.ReadWorkspace(ctx, env)
	}
	return openWorkspace(ctx, env)
}

// appendWorkspace opens the workspace of a writer that only appends new nodes to the
// memory store (mem:checkpoint, mem:create, mem:start): through the host's warm index,
// like a reader, since the store is the only thing it reads and it never changes a node it
// read (the index validates the store on the call, as a read from the disk would; the
// append then reaches the disk directly, and the index decodes only the appended lines on
// its next read).
func appendWorkspace(ctx context.Context, env *tool.Env) (*delivery.Workspace, error) {
	return shell.ReadWorkspace(ctx, env)
}

// checkSince rejects a present SINCE-typed property that is not a SINCE value (USAGE),
// "" included, as the command's SINCE flag does.
func checkSince(prop string, v *string) error {
	if v == nil {
		return nil
	}
	if *v == "" {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected %s", *v, tool.FlagName(prop), ops.SinceExpected)
	}
	return ops.MemInboxInput{Since: *v}.Check()
}
