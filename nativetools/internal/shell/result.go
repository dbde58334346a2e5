package shell

import (
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Day is a DATE property's day (the zero time when it is absent, ""). The schema holds
// the form, YYYY-MM-DD; that it names a real calendar day (not 2026-02-30) no pattern
// states, and the command's DATE flag refuses such a value as USAGE: so does Day.
func Day(prop, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(delivery.DateLayout, v)
	if err != nil {
		return time.Time{}, delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected YYYY-MM-DD date", v, tool.FlagName(prop))
	}
	return t, nil
}

// Duration is a DURATION property's length, nil when it is absent (""). The schema holds
// the form (<int><unit>); a number too large for a time.Duration no pattern states, and
// the command's DURATION flag refuses it as USAGE: so does Duration.
func Duration(prop, v string) (*time.Duration, error) {
	if v == "" {
		return nil, nil
	}
	d, err := delivery.ParseDuration(v)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected duration like 30m, 24h or 7d", v, tool.FlagName(prop))
	}
	return &d, nil
}

// Deref is *p, or the zero value when the property is absent.
func Deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// Or is *p, or def when p is nil (an absent property's default).
func Or[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// Result is the Output of an operation: its data on success, its coded error otherwise
// (a VALIDATION error with the details the legacy envelope has), and its warnings in
// metadata either way (a warning met before a failure is still part of the call's
// output), listed as the adapter lists the envelope's warnings.
// Reporting is Result for an operation whose failure with code still reports what it
// found (a check's CHECK_FAILED, a gate run's GATES_FAILED): that failure carries data,
// as the command's failure envelope does.
func Reporting(data any, notes ops.Notes, err error, code string) tool.Output {
	out := Result(data, notes, err)
	if err != nil && delivery.AsError(err).Code == code {
		out.Data = data
	}
	return out
}

func Result(data any, notes ops.Notes, err error) tool.Output {
	out := tool.OK(data)
	if err != nil {
		out = Fail(err)
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

// LookupEnv is the call's environment as delivery reads it; a nil LookupEnv is empty.
func LookupEnv(env *tool.Env) gitrepo.LookupEnv {
	if env.LookupEnv == nil {
		return gitrepo.LookupEnv(tool.EnvFromMap(nil))
	}
	return gitrepo.LookupEnv(env.LookupEnv)
}
