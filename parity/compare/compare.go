package compare

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/cmdbridge/cmdbridge/tool"
)

// CompareOutputs returns the differences between two outputs, reference
// first, after normalising both with norm: success, error.code and data,
// field by field (a Diff per differing JSON pointer). Messages, details and
// metadata are not compared: lanes may word a failure differently, and
// metadata holds lane facts. Lanes is left empty for the caller to fill.
func CompareOutputs(a, b tool.Output, norm Normalizer) []Diff {
	out := CompareStatus(a, b)
	da, errA := norm.JSON(a.Data)
	db, errB := norm.JSON(b.Data)
	if errA != nil || errB != nil {
		out = append(out, Diff{Kind: KindOutput, Path: "/data",
			Want: fmt.Sprintf("%v", orJSON(a.Data, errA)), Got: fmt.Sprintf("%v", orJSON(b.Data, errB))})
		return out
	}
	return append(out, compareJSON("/data", da, db)...)
}

// CompareStatus returns the differences of success and error.code alone.
func CompareStatus(a, b tool.Output) []Diff {
	var out []Diff
	if a.Success != b.Success {
		out = append(out, Diff{Kind: KindOutput, Path: "/success",
			Want: strconv.FormatBool(a.Success), Got: strconv.FormatBool(b.Success)})
	}
	if ca, cb := errorCode(a), errorCode(b); ca != cb {
		out = append(out, Diff{Kind: KindOutput, Path: "/error/code", Want: ca, Got: cb})
	}
	return out
}

// CompareDetails compares two failures' details (a plain command's streams).
func CompareDetails(a, b tool.Output, norm Normalizer) []Diff {
	var da, db any
	if a.Error != nil {
		da = a.Error.Details
	}
	if b.Error != nil {
		db = b.Error.Details
	}
	na, errA := norm.JSON(da)
	nb, errB := norm.JSON(db)
	if errA != nil || errB != nil {
		return []Diff{{Kind: KindOutput, Path: "/error/details",
			Want: fmt.Sprintf("%v", orJSON(da, errA)), Got: fmt.Sprintf("%v", orJSON(db, errB))}}
	}
	return compareJSON("/error/details", na, nb)
}

// PlainStreams recovers the streams from the output of a plain command's call, the
// inverse of the adapter's plain mapping: data (on success) or error details (on
// failure) that are exactly {stdout, stderr, exit_code}, or the parsed JSON document a
// successful run printed with the streams' exact bytes in metadata (tool.Plain). It
// returns nil when the output has another shape (a document without its bytes, or a
// native failure without streams).
func PlainStreams(o tool.Output) *Streams {
	if o.Success {
		out, okOut := o.Metadata[tool.MetaStdout].(string)
		errs, okErr := o.Metadata[tool.MetaStderr].(string)
		if okOut && okErr {
			return &Streams{Stdout: []byte(out), Stderr: []byte(errs)}
		}
	}
	v := o.Data
	if o.Error != nil {
		v = o.Error.Details
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || len(m) != 3 {
		return nil
	}
	var s struct {
		Stdout   *string `json:"stdout"`
		Stderr   *string `json:"stderr"`
		ExitCode *int    `json:"exit_code"`
	}
	if json.Unmarshal(raw, &s) != nil || s.Stdout == nil || s.Stderr == nil || s.ExitCode == nil {
		return nil
	}
	return &Streams{Stdout: []byte(*s.Stdout), Stderr: []byte(*s.Stderr), ExitCode: *s.ExitCode}
}

func errorCode(o tool.Output) string {
	if o.Error == nil {
		return "(none)"
	}
	return o.Error.Code
}

func orJSON(v any, err error) any {
	if err != nil {
		return "unmarshalable: " + err.Error()
	}
	return v
}

// compareJSON walks two generic JSON values and reports each differing leaf
// (or type change) by JSON pointer.
func compareJSON(ptr string, a, b any) []Diff {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		var out []Diff
		for _, k := range sorted {
			p := ptr + "/" + escapePointer(k)
			va, inA := x[k]
			vb, inB := y[k]
			switch {
			case !inB:
				out = append(out, Diff{Kind: KindOutput, Path: p, Want: render(va), Got: "(absent)"})
			case !inA:
				out = append(out, Diff{Kind: KindOutput, Path: p, Want: "(absent)", Got: render(vb)})
			default:
				out = append(out, compareJSON(p, va, vb)...)
			}
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		var out []Diff
		for i := 0; i < max(len(x), len(y)); i++ {
			p := ptr + "/" + strconv.Itoa(i)
			switch {
			case i >= len(y):
				out = append(out, Diff{Kind: KindOutput, Path: p, Want: render(x[i]), Got: "(absent)"})
			case i >= len(x):
				out = append(out, Diff{Kind: KindOutput, Path: p, Want: "(absent)", Got: render(y[i])})
			default:
				out = append(out, compareJSON(p, x[i], y[i])...)
			}
		}
		return out
	}
	if ra, rb := render(a), render(b); ra != rb {
		return []Diff{{Kind: KindOutput, Path: ptr, Want: ra, Got: rb}}
	}
	return nil
}

// escapePointer escapes a key as RFC 6901 requires.
func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// Streams are the raw results of a legacy-lane run that parity compares
// byte for byte between the subprocess and adapter lanes, and, for a plain
// command, with the native lane's (see PlainStreams).
type Streams struct {
	Stdout, Stderr []byte
	ExitCode       int
}

// CompareStreams returns the differences between two lanes' raw streams
// after norm (which, for streams, matters for $WORK and volatile values
// only). Lanes is left empty.
func CompareStreams(a, b Streams, wantLane, gotLane string, norm Normalizer) []Diff {
	var out []Diff
	if a.ExitCode != b.ExitCode {
		out = append(out, Diff{Kind: KindStream, Path: "exit_code",
			Want: strconv.Itoa(a.ExitCode), Got: strconv.Itoa(b.ExitCode)})
	}
	for _, s := range []struct {
		name string
		a, b []byte
	}{{"stdout", a.Stdout, b.Stdout}, {"stderr", a.Stderr, b.Stderr}} {
		na, nb := norm.Bytes(s.a), norm.Bytes(s.b)
		if string(na) == string(nb) {
			continue
		}
		out = append(out, textDiff(Diff{Kind: KindStream, Path: s.name},
			wantLane+"/"+s.name, na, gotLane+"/"+s.name, nb))
	}
	return out
}
