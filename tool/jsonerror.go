package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DescribeJSON says why data is not one JSON object, with the line and column of the
// fault and what was expected there ("line 1, column 7: unexpected end of input,
// expected a value"), or "" when it is one. Surfaces answer malformed input with it
// instead of echoing the input back.
func DescribeJSON(data []byte) string {
	if len(bytes.TrimSpace(data)) == 0 {
		return "empty input, expected a JSON object such as {}"
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, ok := v.(map[string]any); !ok {
			return fmt.Sprintf("line 1, column 1: a JSON %s, expected an object such as {}", jsonKind(v))
		}
		if rest := dec.InputOffset(); len(bytes.TrimSpace(data[rest:])) > 0 {
			line, col := lineCol(data, rest+int64(len(data[rest:])-len(bytes.TrimLeft(data[rest:], " \t\r\n"))))
			return fmt.Sprintf("line %d, column %d: data after the object, expected the end of input", line, col)
		}
		return ""
	}
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		line, col := lineCol(data, syn.Offset-1) // Offset counts the offending byte
		return fmt.Sprintf("line %d, column %d: %s", line, col, syn.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		line, col := lineCol(data, int64(len(bytes.TrimRight(data, " \t\r\n"))))
		return fmt.Sprintf("line %d, column %d: unexpected end of input, expected the object to continue and close with }", line, col)
	default:
		return err.Error()
	}
}

// lineCol gives the 1-based line and column (in bytes) of the byte at offset off (or of
// the end of input, when off is len(data)).
func lineCol(data []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	return bytes.Count(before, []byte("\n")) + 1, int(off) - bytes.LastIndexByte(before, '\n')
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64, int64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "value"
}
