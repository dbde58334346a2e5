package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxLineBytes bounds one inbound stdio message, as the SDK's own stdio transport does.
const maxLineBytes = 16 << 20

// CodeNotInitialized is the JSON-RPC error code of a request other than initialize or
// ping that arrives before the session is initialized.
const CodeNotInitialized = jsonrpc.CodeInvalidRequest

// lineTransport is the stdio transport: newline-delimited JSON-RPC on a reader and a
// writer, in place of the SDK's IOTransport, which ends the session on the first
// malformed line and, when the client closes its side, drops every answer still owed.
//
//   - A line that is not JSON is answered with a -32700 parse error (id null), a line
//     that is JSON but not a JSON-RPC message with -32600, and the session goes on.
//   - At end of input, Read keeps the session open until every request read so far has
//     been answered (or cancelled), then reports EOF: a client that writes its requests
//     and closes stdin still gets every answer.
//   - A request the client cancelled (notifications/cancelled) gets no response.
//   - An error without a JSON-RPC code (the SDK answers a request made before
//     initialize with one) is sent with a proper code instead of 0.
type lineTransport struct {
	in  io.ReadCloser
	out io.WriteCloser
}

func (t *lineTransport) Connect(context.Context) (sdkmcp.Connection, error) {
	c := &lineConn{
		in: t.in, out: t.out,
		msgs:      make(chan jsonrpc.Message),
		closed:    make(chan struct{}),
		changed:   make(chan struct{}, 1),
		pending:   make(map[jsonrpc.ID]bool),
		outgoing:  make(map[jsonrpc.ID]bool),
		readerEnd: make(chan struct{}),
	}
	go c.pump()
	return c, nil
}

type lineConn struct {
	in  io.ReadCloser
	out io.WriteCloser

	writeMu sync.Mutex // one message per write, whole lines only

	msgs      chan jsonrpc.Message // decoded messages, from pump to Read
	readerEnd chan struct{}        // closed when pump has seen the end of input
	readErr   error                // why pump stopped (io.EOF normally); set before readerEnd closes
	closed    chan struct{}
	closeOnce sync.Once
	closeErr  error

	mu sync.Mutex
	// pending holds the requests read and not answered yet; true marks one the
	// client cancelled, whose response is dropped.
	pending map[jsonrpc.ID]bool
	// outgoing holds the server's own requests awaiting the client's answer.
	outgoing map[jsonrpc.ID]bool
	changed  chan struct{} // signalled when pending or outgoing shrinks
}

func (c *lineConn) SessionID() string { return "" }

// pump reads lines, answers the malformed ones itself and hands the others to Read.
func (c *lineConn) pump() {
	r := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 {
			if msg, ok := c.decode(line); ok {
				select {
				case c.msgs <- msg:
				case <-c.closed:
					c.readErr = io.EOF
					close(c.readerEnd)
					return
				}
			}
		}
		if err != nil {
			if errors.Is(err, errLineTooLong) {
				c.writeError(nil, jsonrpc.CodeInvalidRequest, err.Error())
				continue
			}
			c.readErr = err
			close(c.readerEnd)
			return
		}
	}
}

var errLineTooLong = fmt.Errorf("message longer than %d bytes", maxLineBytes)

// readLine returns the next line without its newline. A line over maxLineBytes is
// skipped to its end and reported as errLineTooLong.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > maxLineBytes {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// decode turns one line into a message, answering it itself when it is not one.
func (c *lineConn) decode(line []byte) (jsonrpc.Message, bool) {
	if !json.Valid(line) {
		c.writeError(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON")
		return nil, false
	}
	if t := bytes.TrimSpace(line); len(t) > 0 && t[0] == '[' {
		c.writeError(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported; send one message per line")
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		var probe struct {
			ID any `json:"id"`
		}
		_ = json.Unmarshal(line, &probe)
		id, _ := jsonrpc.MakeID(probe.ID)
		c.writeError(&id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil, false
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		c.mu.Lock()
		if m.IsCall() {
			c.pending[m.ID] = false
		} else if m.Method == "notifications/cancelled" {
			var p struct {
				RequestID any `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
					if _, ok := c.pending[id]; ok {
						c.pending[id] = true
					}
				}
			}
		}
		c.mu.Unlock()
	case *jsonrpc.Response:
		c.mu.Lock()
		delete(c.outgoing, m.ID)
		c.mu.Unlock()
	}
	return msg, true
}

// Read returns the next message. At the end of input it waits until nothing is owed
// to the client, or a request of the server's own can no longer be answered.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case msg := <-c.msgs:
		return msg, nil
	case <-c.closed:
		return nil, io.EOF
	case <-c.readerEnd:
	}
	for {
		c.mu.Lock()
		drained := len(c.pending) == 0 || len(c.outgoing) > 0
		c.mu.Unlock()
		if drained {
			return nil, c.readErr
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case <-c.changed:
		}
	}
}

// Write sends one message, except the response to a request the client cancelled.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	switch m := msg.(type) {
	case *jsonrpc.Response:
		c.mu.Lock()
		cancelled, known := c.pending[m.ID]
		delete(c.pending, m.ID)
		c.mu.Unlock()
		if known {
			c.signal()
		}
		if cancelled {
			// The MCP spec: no response for a cancelled request.
			return nil
		}
		if m.Error != nil {
			var wire *jsonrpc.Error
			if !errors.As(m.Error, &wire) || wire.Code == 0 {
				m = &jsonrpc.Response{ID: m.ID, Error: codedError(m.Error)}
				msg = m
			}
		}
	case *jsonrpc.Request:
		if m.IsCall() {
			c.mu.Lock()
			c.outgoing[m.ID] = true
			c.mu.Unlock()
			defer c.signal() // at the end of input, such a request can never be answered
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("mcp: encode: %w", err)
	}
	return c.writeLine(data)
}

// codedError gives an error without a JSON-RPC code one: the SDK's refusal of a request
// made before initialize is an invalid request, anything else an internal error.
func codedError(err error) *jsonrpc.Error {
	msg := err.Error()
	if strings.Contains(msg, "during session initialization") {
		return &jsonrpc.Error{Code: CodeNotInitialized, Message: "server not initialized: " + msg + "; send initialize first"}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
}

func (c *lineConn) signal() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// writeError answers a line the SDK never sees; id nil is JSON null.
func (c *lineConn) writeError(id *jsonrpc.ID, code int64, message string) {
	var rawID any
	if id != nil && id.IsValid() {
		rawID = id.Raw()
	}
	data, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": rawID,
		"error": map[string]any{"code": code, "message": message},
	})
	if err == nil {
		_ = c.writeLine(data)
	}
}

func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return sdkmcp.ErrConnectionClosed
	default:
	}
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Close closes both streams; a Read waiting for input returns.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		// Not under writeMu: a write blocked on a client that stopped reading must not
		// hold up Close; closing the file ends that write.
		close(c.closed)
		c.closeErr = errors.Join(c.in.Close(), c.out.Close())
	})
	return c.closeErr
}
