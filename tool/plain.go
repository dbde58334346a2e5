package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Metadata keys of a plain command's output whose stdout was one JSON document (see
// [Plain]): the program's exact bytes, kept beside the parsed data.
const (
	MetaStdout = "stdout"
	MetaStderr = "stderr"
)

// Plain is the Output of a run of a plain command (the `plain` output convention) that
// ended by itself with these streams and exit code; name is what the failure message
// calls the command. Every lane maps a plain run with it, so a native handler that
// reimplements a plain command answers exactly as the program would:
//
//   - exit code 0 and stdout exactly one JSON document (surrounding white space aside):
//     success, data the parsed document, and the exact bytes of both streams in metadata
//     (MetaStdout, MetaStderr), so a host can still have the program's bytes;
//   - exit code 0 otherwise: success, data {stdout, stderr, exit_code};
//   - any other exit code: COMMAND_FAILED, whose message names the code and the first
//     line of stderr, with {stdout, stderr, exit_code} as details.
func Plain(name string, stdout, stderr []byte, exitCode int) Output {
	streams := func() json.RawMessage {
		b, _ := json.Marshal(struct {
			Stdout   string `json:"stdout"`
			Stderr   string `json:"stderr"`
			ExitCode int    `json:"exit_code"`
		}{string(stdout), string(stderr), exitCode})
		return b
	}
	if exitCode == 0 {
		if doc := bytes.TrimSpace(stdout); len(doc) > 0 && json.Valid(doc) {
			out := OK(json.RawMessage(doc))
			out.Metadata = map[string]any{MetaStdout: string(stdout), MetaStderr: string(stderr)}
			return out
		}
		return OK(streams())
	}
	msg := fmt.Sprintf("%s exited with code %d", name, exitCode)
	if line := FirstLine(stderr); line != "" {
		msg += ": " + line
	}
	out := Fail(CodeCommandFailed, "%s", msg)
	out.Error.Details = streams()
	return out
}

// FirstLine is the first non-empty line of a command's output, trimmed: what a
// failure's message quotes of its stderr.
func FirstLine(b []byte) string {
	b = bytes.TrimLeft(b, "\n")
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return string(bytes.TrimSpace(b))
}
