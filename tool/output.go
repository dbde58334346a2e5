package tool

import (
	"encoding/json"
	"fmt"
)

// Output is the result of one tool call, whatever lane served it.
type Output struct {
	Success bool `json:"success"`
	// Data is the command's JSON data: a json.RawMessage from the adapter and subprocess
	// lanes, any JSON-marshalable value from native tools. Parity compares its canonical
	// JSON form.
	Data     any            `json:"data"`
	Error    *Error         `json:"error"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Error is a failed call's reason.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details any    `json:"details"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Output is the failed Output carrying e.
func (e *Error) Output() Output { return Output{Error: e} }

// Refuse is a refusal: what a step that refuses a call, before or instead of running
// it, returns as its error (the toolkit's one refusal type; a surface answers with its
// Output).
func Refuse(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// RefuseDetails is [Refuse] with details attached.
func RefuseDetails(code string, details any, format string, args ...any) *Error {
	e := Refuse(code, format, args...)
	e.Details = details
	return e
}

// OK returns a successful Output carrying data.
func OK(data any) Output { return Output{Success: true, Data: data} }

// Fail returns a failed Output with the given code and message.
func Fail(code, format string, args ...any) Output { return Refuse(code, format, args...).Output() }

// FailDetails returns a failed Output with details attached.
func FailDetails(code string, details any, format string, args ...any) Output {
	return RefuseDetails(code, details, format, args...).Output()
}

// WithMeta returns o with key set in its metadata.
func (o Output) WithMeta(key string, value any) Output {
	m := make(map[string]any, len(o.Metadata)+1)
	for k, v := range o.Metadata {
		m[k] = v
	}
	m[key] = value
	o.Metadata = m
	return o
}

// CanonicalData returns the data as compact JSON with object keys sorted, the form parity
// and hashing compare.
func (o Output) CanonicalData() ([]byte, error) { return CanonicalJSON(o.Data) }

// CanonicalJSON marshals v, decodes it generically and marshals it again, so that object
// keys come out sorted and json.RawMessage values are normalised the same way as structs.
func CanonicalJSON(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return nil, err
	}
	return json.Marshal(generic)
}
