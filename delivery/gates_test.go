package delivery

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/proctree/proctreetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestSelectGates(t *testing.T) {
	gates := []Gate{{Name: "vet"}, {Name: "docs", DocsOnly: true}, {Name: "test"}}
	cases := []struct {
		name     string
		docsOnly bool
		only     []string
		want     []string
	}{
		{"all", false, nil, []string{"vet", "docs", "test"}},
		{"docs only", true, nil, []string{"docs"}},
		{"only keeps config order", false, []string{"test", "vet"}, []string{"vet", "test"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SelectGates(gates, tc.docsOnly, tc.only)
			require.NoError(t, err)
			var names []string
			for _, g := range got {
				names = append(names, g.Name)
			}
			assert.Equal(t, tc.want, names)
		})
	}
	_, err := SelectGates(gates, false, []string{"nope"})
	assert.Equal(t, tool.CodeValidation, CodeOf(err))
}

func TestRunGatesExitCodesTimeoutAndTelemetry(t *testing.T) {
	root := t.TempDir()
	now := time.Date(2026, 3, 2, 20, 5, 0, 0, time.UTC)
	wu, lane := "WU-12", "Core: API"
	var out bytes.Buffer
	res, err := RunGates(context.Background(), GateRun{
		Dir: root, Output: &out, Now: func() time.Time { return now }, TelemetryRoot: root, WUID: &wu, Lane: &lane,
	}, []Gate{
		{Name: "ok", Run: `echo "gate=$DELIVERY_GATE"`, Timeout: time.Minute},
		{Name: "fail", Run: "exit 3", Timeout: time.Minute},
		{Name: "slow", Run: "sleep 30 & sleep 30", Timeout: 200 * time.Millisecond},
	})
	require.NoError(t, err)
	assert.Equal(t, []GateResult{
		{Name: "ok", Passed: true, ExitCode: 0},
		{Name: "fail", Passed: false, ExitCode: 3},
		{Name: "slow", Passed: false, ExitCode: 124},
	}, res)
	assert.Equal(t, "gate=ok\n", out.String())
	recs, bad, err := storage.ReadRecords[GateTelemetry](filepath.Join(root, GatesTelemetry), nil)
	require.NoError(t, err)
	assert.Empty(t, bad)
	require.Len(t, recs, 3)
	line, err := storage.MarshalRecord(recs[0])
	require.NoError(t, err)
	assert.Equal(t, `{"timestamp":"2026-03-02T20:05:00.000Z","wu_id":"WU-12","lane":"Core: API","gate_name":"ok","passed":true,"duration_ms":0}`+"\n", string(line))

	noLane, err := storage.MarshalRecord(GateTelemetry{Timestamp: "t", GateName: "g"})
	require.NoError(t, err)
	assert.Contains(t, string(noLane), `"wu_id":null,"lane":null`)
}

// TestRunGatesTimeoutKillsEscapedDaemon: a gate that double-forks a daemon which leaves
// the process group (setsid) and ignores SIGTERM, then outlives its timeout. When RunGates
// reports 124 the daemon must be gone too.
func TestRunGatesTimeoutKillsEscapedDaemon(t *testing.T) {
	dir := t.TempDir()
	res, err := RunGates(context.Background(), GateRun{Dir: dir, Output: io.Discard, Now: time.Now}, []Gate{{
		Name: "daemon", Timeout: 3 * time.Second,
		Run: proctreetest.Script,
	}})
	require.NoError(t, err)
	require.Len(t, res, 1)
	assert.Equal(t, 124, res[0].ExitCode)
	proctreetest.RequireDaemonGone(t, dir, "its gate")
}
