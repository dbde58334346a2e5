package evidence_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
)

// writeLog appends n receipts and closes the log (which checkpoints).
func writeLog(t *testing.T, dir string, n, every int) {
	t.Helper()
	l, err := evidence.Open(evidence.Config{Dir: dir, CheckpointEvery: every})
	require.NoError(t, err)
	for i := 0; i < n; i++ {
		require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprintf("c-%d", i), Tool: "git:status", Status: evidence.StatusOK}))
	}
	require.NoError(t, l.Close())
}

func lines(t *testing.T, dir string) [][]byte {
	data, err := os.ReadFile(filepath.Join(dir, evidence.ReceiptsFile))
	require.NoError(t, err)
	return bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}

func rewrite(t *testing.T, dir string, ls [][]byte) {
	var b bytes.Buffer
	for _, l := range ls {
		b.Write(bytes.TrimSuffix(l, []byte("\n")))
		b.WriteByte('\n')
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, evidence.ReceiptsFile), b.Bytes(), 0o644))
}

func TestVerifyCleanLog(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, dir, 10, 4)
	writeLog(t, dir, 3, 4) // reopening continues the chain
	rep, err := evidence.Verify(dir)
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, 13, rep.Records)
	assert.Equal(t, int64(13), rep.Covered)
	assert.Equal(t, 5, rep.Checkpoints) // every 4 records (4, 8, 12) and at each close (10, 13)
}

func TestVerifyDetectsDamage(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, dir string, ls [][]byte) [][]byte
		kind   string
		seq    int64
	}{
		{"edited field", func(t *testing.T, dir string, ls [][]byte) [][]byte {
			ls[2] = bytes.Replace(ls[2], []byte(`"tool":"git:status"`), []byte(`"tool":"git:commit"`), 1)
			return ls
		}, evidence.Edited, 3},
		{"deleted record", func(t *testing.T, dir string, ls [][]byte) [][]byte {
			return append(ls[:4:4], ls[5:]...)
		}, evidence.Deleted, 5},
		{"reordered records", func(t *testing.T, dir string, ls [][]byte) [][]byte {
			ls[1], ls[2] = ls[2], ls[1]
			return ls
		}, evidence.Reordered, 3},
		{"truncated after checkpoint", func(t *testing.T, dir string, ls [][]byte) [][]byte {
			return ls[:6]
		}, evidence.Truncated, 7},
		{"garbage line", func(t *testing.T, dir string, ls [][]byte) [][]byte {
			ls[0] = []byte("{not json")
			return ls
		}, evidence.Malformed, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeLog(t, dir, 10, 4)
			rewrite(t, dir, tc.damage(t, dir, lines(t, dir)))
			rep, err := evidence.Verify(dir)
			require.NoError(t, err)
			require.False(t, rep.OK())
			assert.Equal(t, tc.kind, rep.Problems[0].Kind, "%+v", rep.Problems)
			assert.Equal(t, tc.seq, rep.Problems[0].Seq, "%+v", rep.Problems)
		})
	}
}

func TestVerifyDetectsRewrittenHashChain(t *testing.T) {
	// An attacker who edits a record and recomputes every hash after it keeps the chain
	// consistent; only the signed checkpoint root catches it.
	dir := t.TempDir()
	writeLog(t, dir, 5, 100)
	ls := lines(t, dir)
	// The key's holder writes the forged records (a log refuses to open on less than
	// its checkpoints cover), then puts the signed checkpoint back.
	cps, err := os.ReadFile(filepath.Join(dir, evidence.CheckpointsFile))
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(dir, evidence.ReceiptsFile)))
	require.NoError(t, os.Remove(filepath.Join(dir, evidence.CheckpointsFile)))
	l, err := evidence.Open(evidence.Config{Dir: dir, CheckpointEvery: 100, CheckpointIdle: -1})
	require.NoError(t, err)
	for i := range ls {
		tool := "git:status"
		if i == 1 {
			tool = "git:commit"
		}
		require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprintf("c-%d", i), Tool: tool, Status: evidence.StatusOK}))
	}
	// Do not Close: that would sign the forged tree.
	require.NoError(t, os.WriteFile(filepath.Join(dir, evidence.CheckpointsFile), cps, 0o644))
	rep, err := evidence.Verify(dir)
	require.NoError(t, err)
	require.False(t, rep.OK())
	assert.Equal(t, evidence.Edited, rep.Problems[0].Kind)
	assert.Contains(t, rep.Problems[0].Message, "signed local checkpoint")
}

func TestVerifyDetectsForgedCheckpoint(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, dir, 3, 100)
	p := filepath.Join(dir, evidence.CheckpointsFile)
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, []byte(strings.Replace(string(data), `"n":3`, `"n":9`, 1)), 0o644))
	rep, err := evidence.Verify(dir)
	require.NoError(t, err)
	require.False(t, rep.OK())
	assert.Equal(t, evidence.BadCheckpt, rep.Problems[0].Kind)
}

func TestGroupCommitKeepsOneChain(t *testing.T) {
	dir := t.TempDir()
	l, err := evidence.Open(evidence.Config{Dir: dir, CheckpointEvery: 50})
	require.NoError(t, err)
	var wg sync.WaitGroup
	seqs := make([]int64, 200)
	for i := range seqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &evidence.Receipt{ID: fmt.Sprint(i)}
			assert.NoError(t, l.Append(r))
			seqs[i] = r.Seq
		}()
	}
	wg.Wait()
	require.NoError(t, l.Close())
	seen := map[int64]bool{}
	for _, s := range seqs {
		assert.False(t, seen[s], "seq %d twice", s)
		seen[s] = true
	}
	rep, err := evidence.Verify(dir)
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, 200, rep.Records)
	_, err = os.Stat(filepath.Join(dir, evidence.SigningKeyFile))
	require.NoError(t, err)
	assert.Error(t, l.Append(&evidence.Receipt{}), "append after close")
}

func TestTornLineIsReportedAndTheLogGoesOn(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, dir, 3, 100)
	f, err := os.OpenFile(filepath.Join(dir, evidence.ReceiptsFile), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"seq":4,"id":"half`) // a crash mid-write
	require.NoError(t, err)
	require.NoError(t, f.Close())
	writeLog(t, dir, 2, 100)
	rep, err := evidence.Verify(dir)
	require.NoError(t, err)
	require.Len(t, rep.Problems, 1, "%+v", rep.Problems)
	assert.Equal(t, evidence.Malformed, rep.Problems[0].Kind)
	assert.Equal(t, 4, rep.Problems[0].Line)
	assert.Equal(t, 5, rep.Records)
}
