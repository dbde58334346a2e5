package http

import (
	"bytes"
	"encoding/json"

	"github.com/cmdbridge/cmdbridge/tool"
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
// query value) asks for it, the wrapper holding the input and the stdin. A body it
// refuses is INVALID_INPUT (400).
func parseCallBody(mode string, body []byte) (input json.RawMessage, stdin []byte, refused *tool.Error) {
	switch mode {
	case "":
		input, refused = objectBody(body)
		return input, nil, refused
	case "1", "true":
	default:
		return nil, nil, invalid(`query parameter stdin must be 1 or true`)
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, nil, invalid(`with ?stdin=1 the body must be one JSON object {"input": {...}, "stdin": "..."}`)
	}
	var cb callBody
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cb); err != nil {
		return nil, nil, invalid(`with ?stdin=1 the body must be {"input": {...}, "stdin": "..."}: %v`, err)
	}
	if input, refused = objectBody(cb.Input); refused != nil {
		return nil, nil, invalid("input: %s", refused.Message)
	}
	if cb.Stdin != nil {
		stdin = []byte(*cb.Stdin)
	}
	return input, stdin, nil
}
