package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"syscall"

	"github.com/cmdbridge/cmdbridge/tool"
)

// maxRequest caps the request document the runner reads.
const maxRequest = 64 << 20

// ResultFD is the descriptor the runner finds its result channel on inside the sandbox.
const ResultFD = 3

// Serve is the runner side of the protocol: it reads one Request from stdin, calls run,
// and writes {"output": <tool.Output>} to result, then closes it. The output's metadata
// carries the request's receipt id. A malformed request still gets a result
// (EXECUTION_FAILED) and makes Serve return an error; a panic in run becomes INTERNAL.
// The result descriptor is marked close-on-exec first, so processes the tool starts
// cannot write to it or hold it open.
func Serve(ctx context.Context, stdin io.Reader, result *os.File, run func(ctx context.Context, req Request) tool.Output) error {
	defer result.Close()
	syscall.CloseOnExec(int(result.Fd()))
	req, err := readRequest(stdin)
	var out tool.Output
	if err != nil {
		out = tool.Fail(tool.CodeExecutionFailed, "sandbox runner: %v", err)
	} else {
		out = safeRun(ctx, req, run)
	}
	out = out.WithMeta("receipt_id", req.ReceiptID)
	enc := json.NewEncoder(result)
	enc.SetEscapeHTML(false)
	if werr := enc.Encode(resultDoc{Output: out}); werr != nil {
		return fmt.Errorf("sandbox runner: write result: %w", werr)
	}
	return err
}

func readRequest(stdin io.Reader) (Request, error) {
	var req Request
	raw, err := io.ReadAll(io.LimitReader(stdin, maxRequest+1))
	if err != nil {
		return req, fmt.Errorf("read request: %w", err)
	}
	if len(raw) > maxRequest {
		return req, fmt.Errorf("request larger than %d bytes", maxRequest)
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return Request{}, fmt.Errorf("decode request: %w", err)
	}
	if req.ToolName == "" {
		return req, fmt.Errorf("request has no tool_name")
	}
	if len(bytes.TrimSpace(req.Input)) == 0 {
		req.Input = json.RawMessage(`{}`)
	}
	return req, nil
}

func safeRun(ctx context.Context, req Request, run func(context.Context, Request) tool.Output) (out tool.Output) {
	defer func() {
		if r := recover(); r != nil {
			out = tool.FailDetails(tool.CodeInternal, map[string]any{"stack": string(debug.Stack())},
				"%s: sandbox runner: panic: %v", req.ToolName, r)
		}
	}()
	return run(ctx, req)
}
