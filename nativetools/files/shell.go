package files

import (
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The legacy commands check argv before anything else (commands/convention, spec §2.1):
// the environment, then typed values in flag-table order, then missing required flags.
// Parity calls the lanes without a kernel in front, so no schema validation runs first:
// the native shells repeat those checks in the same order, and a property whose ""
// differs from absent (`--key=` reaches the operation, a missing --key is USAGE) is a
// pointer in its Input struct.

// requireFlag rejects an absent required property (USAGE), as a missing required flag.
func requireFlag(prop string, present bool) error {
	if !present {
		return delivery.Errorf(tool.CodeUsage, "missing required flag --%s", tool.FlagName(prop))
	}
	return nil
}

// checkMin rejects a present integer below lo (USAGE), as a bounded convention.Int does.
func checkMin(prop string, v *int64, lo int64) error {
	if v != nil && *v < lo {
		return delivery.Errorf(tool.CodeUsage, "invalid value \"%d\" for --%s: expected integer >= %d", *v, tool.FlagName(prop), lo)
	}
	return nil
}

// checkEnum rejects a present value that is not one of choices (USAGE), "" included, as
// a convention.Enum flag does.
func checkEnum(prop string, v *string, choices ...string) error {
	if v != nil && !slices.Contains(choices, *v) {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected one of %s", *v, tool.FlagName(prop), strings.Join(choices, ", "))
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

// deref is *p, or the zero value when the property is absent.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// intPtr converts a present int64 property to the *int the operations take.
func intPtr(p *int64) *int {
	if p == nil {
		return nil
	}
	n := int(*p)
	return &n
}

// lookupEnv is the call's environment as delivery reads it; a nil LookupEnv is empty.
func lookupEnv(env *tool.Env) delivery.LookupEnv {
	if env.LookupEnv == nil {
		return delivery.LookupEnv(tool.EnvFromMap(nil))
	}
	return delivery.LookupEnv(env.LookupEnv)
}

// result is the Output of an operation: its data on success, its coded error otherwise,
// and its warnings in metadata either way (a warning met before a failure is still part
// of the call's output), listed as the adapter lists the envelope's warnings.
func result(data any, notes ops.Notes, err error) tool.Output {
	out := tool.OK(data)
	if err != nil {
		out = shell.Fail(err)
		validationDetails(out.Error)
	}
	warnings := notes.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	return out.WithMeta("warnings", warnings)
}

// validationDetails gives a VALIDATION error the details the legacy envelope has
// (commands/convention): {"errors": [...]} listing the violations, the message alone when
// the operation listed none. Parity compares only the code; a native caller still gets
// the same error object the adapter lane returns.
func validationDetails(te *tool.Error) {
	if te == nil || te.Code != tool.CodeValidation {
		return
	}
	switch d := te.Details.(type) {
	case map[string]any:
		if errs, ok := d["errors"].([]string); ok && len(errs) > 0 {
			return
		}
		out := make(map[string]any, len(d)+1)
		for k, v := range d {
			out[k] = v
		}
		out["errors"] = []string{te.Message}
		te.Details = out
		return
	case []string:
		if len(d) > 0 {
			te.Details = map[string]any{"errors": d}
			return
		}
	}
	te.Details = map[string]any{"errors": []string{te.Message}}
}
