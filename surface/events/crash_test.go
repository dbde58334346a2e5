package events_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
)

// The child is this test binary re-executed as a tiny event server on the outbox
// directory in childDirEnv. In "kill" mode it SIGKILLs itself right after the outbox
// commit of the first durable event, before anyone hears of it.
const (
	childEnv    = "CMDBRIDGE_EVENTS_TEST_CHILD"
	childDirEnv = "CMDBRIDGE_EVENTS_TEST_DIR"
)

func runChild(mode string) int {
	h, err := events.NewHub(events.Config{Dir: os.Getenv(childDirEnv), Source: "crash-child"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	if mode == "kill" {
		events.SetAfterCommit(h, func(e events.Event) {
			b, _ := json.Marshal(e)
			// os.Stdout is unbuffered: the line is out before the signal lands.
			fmt.Fprintf(os.Stdout, "committed %s\n", b)
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		})
	}
	mux := http.NewServeMux()
	mux.Handle("/events", h.Handler())
	mux.Handle("/events/ack", h.Handler())
	mux.HandleFunc("POST /publish", func(w http.ResponseWriter, r *http.Request) {
		var e events.Event
		if err := json.NewDecoder(r.Body).Decode(&e); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out, err := h.Publish(r.Context(), e)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		_ = json.NewEncoder(w).Encode(out)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	fmt.Fprintf(os.Stdout, "addr http://%s\n", ln.Addr())
	_, _ = io.Copy(io.Discard, os.Stdin) // the parent closes stdin to stop us
	err = h.Close()
	_ = srv.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	return 0
}

type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
	base   string
}

func startChild(t *testing.T, mode, dir string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, childDirEnv+"="+dir)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	c := &child{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout), stderr: &bytes.Buffer{}}
	cmd.Stderr = c.stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = stdin.Close()
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	line, err := c.out.ReadString('\n')
	require.NoError(t, err, "child stderr: %s", c.stderr)
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "addr ")
	require.True(t, ok, "child said %q", line)
	c.base = addr
	return c
}

func (c *child) publish(e events.Event) (*http.Response, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	return http.Post(c.base+"/publish", "application/json", bytes.NewReader(b))
}

// stop closes the child's stdin and waits for a clean exit.
func (c *child) stop(t *testing.T) {
	t.Helper()
	require.NoError(t, c.stdin.Close())
	require.NoError(t, c.cmd.Wait(), "child stderr: %s", c.stderr)
}

func TestCrashAfterOutboxCommitLosesNothing(t *testing.T) {
	defer http.DefaultClient.CloseIdleConnections()
	dir := t.TempDir()

	// Life 1: a subscriber is connected; the publish is committed, then the process dies.
	c1 := startChild(t, "kill", dir)
	watcher := connect(t, c1.base, "")
	retry, err := watcher.next()
	require.NoError(t, err)
	require.NotEmpty(t, retry.Retry, "the watcher is connected")

	resp, err := c1.publish(events.Command("ops", "deploy", map[string]any{"ref": "v1.2"}))
	if err == nil {
		resp.Body.Close()
	}
	require.Error(t, err, "the server dies before answering the publish")

	line, err := c1.out.ReadString('\n')
	require.NoError(t, err, "child stderr: %s", c1.stderr)
	raw, ok := strings.CutPrefix(strings.TrimSpace(line), "committed ")
	require.True(t, ok, "child said %q", line)
	var committed events.Event
	require.NoError(t, json.Unmarshal([]byte(raw), &committed))

	err = c1.cmd.Wait()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "child must die, got %v", err)
	ws, ok := exit.Sys().(syscall.WaitStatus)
	require.True(t, ok)
	require.Equal(t, syscall.SIGKILL, ws.Signal(), "killed by SIGKILL")

	_, err = watcher.nextEvent()
	require.Error(t, err, "nothing was delivered before the crash")

	// Life 2 on the same directory: every fresh subscriber gets the event until it is
	// acknowledged, always with the id it was committed under.
	c2 := startChild(t, "serve", dir)
	for range 2 {
		s := connect(t, c2.base, "")
		f, err := s.nextEvent()
		require.NoError(t, err)
		got := f.envelope(t)
		assert.Equal(t, committed.EventID, got.EventID)
		assert.Equal(t, committed.Timestamp, got.Timestamp)
		assert.Equal(t, fmt.Sprint(committed.Seq), f.ID, "replayed under its original stream id")
	}

	code, body := postAck(t, c2.base, fmt.Sprintf(`{"event_ids":[%q]}`, committed.EventID))
	require.Equal(t, 200, code, body)
	assert.JSONEq(t, `{"acked":1,"pending":0}`, body)

	s := connect(t, c2.base, "")
	resp, err = c2.publish(events.Command("ops", "marker", nil))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	f, err := s.nextEvent()
	require.NoError(t, err)
	marker := f.envelope(t)
	assert.Equal(t, "marker", marker.Payload["command"], "an acknowledged event is not replayed")
	assert.Greater(t, marker.Seq, committed.Seq, "stream ids stay monotonic across the crash")
	c2.stop(t)

	// Life 3: the acknowledgement itself survived.
	c3 := startChild(t, "serve", dir)
	s3 := connect(t, c3.base, "")
	f, err = s3.nextEvent()
	require.NoError(t, err)
	assert.Equal(t, marker.EventID, f.envelope(t).EventID, "only the unacknowledged marker is replayed")
	c3.stop(t)
}
