package storage

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type testRecord struct {
	Writer string `json:"writer"`
	Seq    int    `json:"seq"`
	Pad    string `json:"pad"`
}

// writeFile writes content at path, creating its directories.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

// TestMain lets the concurrency test re-exec this binary as an appender process.
func TestMain(m *testing.M) {
	if path := os.Getenv("DELIVERY_TEST_APPENDER"); path != "" {
		name := os.Getenv("DELIVERY_TEST_WRITER")
		n, _ := strconv.Atoi(os.Getenv("DELIVERY_TEST_COUNT"))
		pad := string(make([]byte, 0))
		for i := 0; i < 300; i++ {
			pad += "x"
		}
		for i := 0; i < n; i++ {
			if err := AppendJSONL(path, testRecord{Writer: name, Seq: i, Pad: pad}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestAppendJSONLTwoProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "records.jsonl")
	var cmds []*exec.Cmd
	for _, w := range []string{"a", "b"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "DELIVERY_TEST_APPENDER="+path, "DELIVERY_TEST_WRITER="+w, "DELIVERY_TEST_COUNT=200")
		cmd.Stderr = os.Stderr
		require.NoError(t, cmd.Start())
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		require.NoError(t, c.Wait())
	}
	recs, bad, err := ReadRecords[testRecord](path, nil)
	require.NoError(t, err)
	assert.Empty(t, bad)
	require.Len(t, recs, 400)
	next := map[string]int{}
	for _, r := range recs {
		assert.Equal(t, next[r.Writer], r.Seq, "each writer's records stay in order")
		next[r.Writer]++
	}
	assert.Equal(t, map[string]int{"a": 200, "b": 200}, next)
}

func TestReadRecordsSkipsBadLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	writeFile(t, path, "{\"writer\":\"a\",\"seq\":1}\n\n   \n[1,2]\n{\"writer\":\"b\",\"seq\":\"two\"}\n{bad\n{\"writer\":\"c\",\"seq\":3}\n")
	recs, bad, err := ReadRecords[testRecord](path, func(r *testRecord) error {
		if r.Writer == "c" {
			return fmt.Errorf("writer c is not allowed")
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []testRecord{{Writer: "a", Seq: 1}}, recs)
	require.Len(t, bad, 4)
	assert.Equal(t, []int{4, 5, 6, 7}, []int{bad[0].N, bad[1].N, bad[2].N, bad[3].N})
	assert.Equal(t, "x.jsonl line 5: field seq: expected int", bad[1].Warning("x.jsonl"))
	assert.Equal(t, "writer c is not allowed", bad[3].Reason)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	_, _, _ = ReadRecords[testRecord](path, nil)
	after, _ := os.ReadFile(path)
	assert.Equal(t, before, after, "readers never rewrite")

	missing, bad, err := ReadRecords[testRecord](filepath.Join(t.TempDir(), "none.jsonl"), nil)
	require.NoError(t, err)
	assert.Empty(t, missing)
	assert.Empty(t, bad)
}

func TestAppendJSONLStartsOnFreshLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	writeFile(t, path, `{"writer":"a","seq":1}`) // no final newline
	require.NoError(t, AppendJSONL(path, testRecord{Writer: "b", Seq: 2}))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "{\"writer\":\"a\",\"seq\":1}\n{\"writer\":\"b\",\"seq\":2,\"pad\":\"\"}\n", string(data))
	require.NoError(t, RewriteJSONL(path, testRecord{Writer: "c"}))
	data, _ = os.ReadFile(path)
	assert.Equal(t, "{\"writer\":\"c\",\"seq\":0,\"pad\":\"\"}\n", string(data))
}

func BenchmarkAppendJSONL(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.jsonl")
	rec := testRecord{Writer: "bench", Pad: "payload"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		rec.Seq = i
		if err := AppendJSONL(path, rec); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWholeLinesReadsAHalfAppendAgain: a read that ends mid-line is read again until it
// ends with a newline; one that ends mid-line and does not change (a writer crashed
// mid-line) is kept as it is, after one more read, and so is one whose read again fails.
func TestWholeLinesReadsAHalfAppendAgain(t *testing.T) {
	reads := func(contents ...string) (func() ([]byte, error), *int) {
		n := 0
		return func() ([]byte, error) {
			c := contents[min(n, len(contents)-1)]
			n++
			return []byte(c), nil
		}, &n
	}
	half := "{\"a\":1}\n{\"b\""
	again, n := reads("{\"a\":1}\n{\"b\":2", "{\"a\":1}\n{\"b\":2}\n")
	assert.Equal(t, "{\"a\":1}\n{\"b\":2}\n", string(WholeLines([]byte(half), again)))
	assert.Equal(t, 2, *n)

	again, n = reads(half)
	assert.Equal(t, half, string(WholeLines([]byte(half), again)), "a line cut by a crash stays cut")
	assert.Equal(t, 1, *n)

	again, n = reads("never")
	assert.Equal(t, "{\"a\":1}\n", string(WholeLines([]byte("{\"a\":1}\n"), again)))
	assert.Equal(t, 0, *n, "a whole read is not read again")

	failing := func() ([]byte, error) { return nil, os.ErrNotExist }
	assert.Equal(t, half, string(WholeLines([]byte(half), failing)), "a failed read again keeps what was read")
}

// TestReadLinesNeverSeesHalfAnAppend: records that each cross a page boundary are
// appended while another goroutine reads the file; no read ever holds part of a record.
func TestReadLinesNeverSeesHalfAnAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	pad := strings.Repeat("x", 6000) // every record crosses at least one page boundary
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 300 {
			if err := AppendJSONL(path, testRecord{Writer: "w", Seq: i, Pad: pad}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	reads := 0
	for running := true; running; reads++ {
		select {
		case <-done:
			running = false
		default:
		}
		lines, err := ReadLines(path)
		require.NoError(t, err)
		_, bad := DecodeRecords[testRecord](lines, nil)
		require.Empty(t, bad, "read %d saw part of a record", reads)
	}
	t.Logf("%d reads", reads)
}
