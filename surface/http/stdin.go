package http

import (
	"bytes"
	"encoding/json"
)

// StdinQuery is the query parameter of POST /tools/{name} that wraps the body: with
// ?stdin=1 the body is {"input": {...}, "stdin": "..."}, and stdin is the tool's
// standard input (for commands that read a file argument "-"). Without it the body is
// the input object itself, as always.
const StdinQuery = "stdin"

// callBody is the wrapped body of a call that carries stdin.
type callBody struct {
	Input json.RawMessage `json:"input"`
	Stdin *string         `json:"stdin"`
}

// parseCallBody reads a call's body: the input object, or, when mode (the ?stdin=
// query value) asks for it, the wrapper holding the input and the stdin. why is the 400
// answer.
func parseCallBody(mode string, body []byte) (input json.RawMessage, stdin []byte, why string) {
	switch mode {
	case "":
		input, why = objectBody(body)
		return input, nil, why
	case "1", "true":
	default:
		return nil, nil, `query parameter stdin must be 1 or true`
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, nil, `with ?stdin=1 the body must be one JSON object {"input": {...}, "stdin": "..."}`
	}
	var cb callBody
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cb); err != nil {
		return nil, nil, `with ?stdin=1 the body must be {"input": {...}, "stdin": "..."}: ` + err.Error()
	}
	input, why = objectBody(cb.Input)
	if why != "" {
		return nil, nil, "input: " + why
	}
	if cb.Stdin != nil {
		stdin = []byte(*cb.Stdin)
	}
	return input, stdin, ""
}
