package broker

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCallLog: the idempotency log's verdicts across a reopen, a torn last line, the
// retention, and a second opener.
func TestCallLog(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	l, err := openCallLog(dir, time.Hour, now)
	require.NoError(t, err)
	_, err = openCallLog(dir, time.Hour, now)
	assert.ErrorContains(t, err, "in use", "one sidecar per log")

	v, e, err := l.begin("s\x00k1", "h1", now)
	require.NoError(t, err)
	require.Equal(t, runIt, v)
	v, _, _ = l.begin("s\x00k1", "h1", now)
	assert.Equal(t, waitRun, v, "running: a duplicate waits")
	v, _, _ = l.begin("s\x00k1", "other", now)
	assert.Equal(t, conflict, v)
	require.NoError(t, l.finish("s\x00k1", e, "call-1", []byte("{\"success\":true}\n")))
	v, e1, _ := l.begin("s\x00k1", "h1", now)
	assert.Equal(t, replay, v)
	assert.Equal(t, "{\"success\":true}\n", string(e1.out))

	v, _, err = l.begin("s\x00k2", "h2", now) // begun, never finished: a crash
	require.NoError(t, err)
	require.Equal(t, runIt, v)
	require.NoError(t, l.close())
	// A torn last line, as a crash mid-write leaves it.
	f, err := os.OpenFile(filepath.Join(dir, callLogName), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"op":"begin","key":"s\u0000k3"`)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	l, err = openCallLog(dir, time.Hour, now.Add(time.Minute))
	require.NoError(t, err)
	v, e1, _ = l.begin("s\x00k1", "h1", now)
	assert.Equal(t, replay, v, "the reply survives a reopen")
	assert.Equal(t, "call-1", e1.callID)
	v, _, _ = l.begin("s\x00k2", "h2", now)
	assert.Equal(t, inDoubt, v, "begun in an earlier life, never done")
	v, e3, err := l.begin("s\x00k3", "h3", now)
	require.NoError(t, err)
	assert.Equal(t, runIt, v, "the torn record never counted")
	require.NoError(t, l.finish("s\x00k3", e3, "call-3", []byte("x\n")))
	require.NoError(t, l.close())

	// Past the retention, finished keys are forgotten.
	l, err = openCallLog(dir, time.Hour, now.Add(2*time.Hour))
	require.NoError(t, err)
	defer l.close()
	v, _, err = l.begin("s\x00k1", "h1", now.Add(2*time.Hour))
	require.NoError(t, err)
	assert.Equal(t, runIt, v)
}
