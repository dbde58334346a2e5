package all_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands/commandstest/wsgen"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The tests below run the commands on a generated 1× mature workspace (commands/commandstest/wsgen)
// and check the answers docs/real-data.md decides for the shapes real projects have.
// Every expectation is derived from the generator's manifest.

// realData returns the shared 1× workspace; -short skips these tests (writing it and
// its git repository takes seconds).
func realData(t *testing.T) *wsgen.Manifest {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: generates a 1,265-WU workspace")
	}
	return generated(t, 1)
}

// dataOf decodes a call's data into v, failing the test when the call did not succeed.
func dataOf(t *testing.T, out tool.Output, v any) {
	t.Helper()
	if !out.Success {
		msg := ""
		if out.Error != nil {
			msg = out.Error.Code + ": " + out.Error.Message
		}
		require.Failf(t, "call failed", "%s", msg)
	}
	raw, err := json.Marshal(out.Data)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, v))
}

func warningsOf(out tool.Output) []string {
	w, _ := out.Metadata["warnings"].([]string)
	return w
}

// A closed WU whose events end in ready (claimed, released, superseded) is consistent,
// so the integrity checks pass on a healthy mature project.
func TestRealDataIntegrityChecksPass(t *testing.T) {
	m := realData(t)
	require.NotEmpty(t, m.ReleasedThenClosed)
	var doctor struct {
		Issues []struct{ Code, Subject string }
	}
	out := scaleCall(t, m, "state:doctor", "adapter", `{}`)
	dataOf(t, out, &doctor)
	assert.Empty(t, doctor.Issues)

	var repair struct {
		Checked []string
		Issues  []struct{ ID, Code string }
	}
	dataOf(t, scaleCall(t, m, "wu:repair", "adapter", `{"all":true,"check":true}`), &repair)
	assert.Len(t, repair.Checked, m.WUs)
	assert.Empty(t, repair.Issues)
}

// Stamps left behind by deleted WU specs are reported by state:doctor, one warning each,
// without failing it.
func TestRealDataDoctorWarnsAboutOrphanStamps(t *testing.T) {
	m := realData(t)
	require.NotEmpty(t, m.OrphanStamps)
	out := scaleCall(t, m, "state:doctor", "adapter", `{}`)
	require.True(t, out.Success)
	var named []string
	for _, w := range warningsOf(out) {
		for _, id := range m.OrphanStamps {
			if strings.Contains(w, "stamps/"+id+".done has no WU spec") {
				named = append(named, id)
			}
		}
	}
	assert.ElementsMatch(t, m.OrphanStamps, named)
}

// wu:status calls a released-then-superseded WU consistent on both lanes.
func TestRealDataClosedAfterReleaseIsConsistent(t *testing.T) {
	m := realData(t)
	id := m.ReleasedThenClosed[0]
	for _, lane := range []string{"adapter", "native"} {
		var st struct {
			Consistent    bool    `json:"consistent"`
			Inconsistency *string `json:"inconsistency"`
		}
		dataOf(t, scaleCall(t, m, "wu:status", lane, fmt.Sprintf(`{"id":%q}`, id)), &st)
		assert.True(t, st.Consistent, "%s on the %s lane", id, lane)
		assert.Nil(t, st.Inconsistency, "%s on the %s lane", id, lane)
	}
}

// lane:health (both lanes) is healthy when the only shared files are a lane's and its
// sub-lanes', and lists those pairs apart.
func TestRealDataSubLanesAreNotOverlaps(t *testing.T) {
	m := realData(t)
	for _, lane := range []string{"adapter", "native"} {
		var h struct {
			Overlaps        []struct{ Lanes []string }
			SubLaneOverlaps []struct {
				Lanes     []string
				FileCount int `json:"file_count"`
			} `json:"sub_lane_overlaps"`
			Healthy bool
		}
		dataOf(t, scaleCall(t, m, "lane:health", lane, `{}`), &h)
		assert.True(t, h.Healthy, lane)
		assert.Empty(t, h.Overlaps, lane)
		var pairs [][2]string
		for _, o := range h.SubLaneOverlaps {
			require.Len(t, o.Lanes, 2)
			assert.Positive(t, o.FileCount)
			pairs = append(pairs, [2]string{o.Lanes[0], o.Lanes[1]})
		}
		assert.ElementsMatch(t, m.SubLanes, pairs, lane)
	}
}

// initiative:status and initiative:list (both lanes) show the listed WUs whose spec is
// gone, and leave them out of the progress.
func TestRealDataInitiativesShowMissingWUs(t *testing.T) {
	m := realData(t)
	require.NotEmpty(t, m.GoneListedBy)
	type row struct {
		ID       string
		Missing  []string
		Done     int
		Total    int
		Progress struct{ Done, Total int }
	}
	var list struct{ Initiatives []row }
	for _, lane := range []string{"native", "adapter"} { // the adapter's list is used below
		out := scaleCall(t, m, "initiative:list", lane, `{}`)
		dataOf(t, out, &list)
		require.Len(t, list.Initiatives, m.Initiatives, lane)
		warned := strings.Join(warningsOf(out), "\n")
		for _, r := range list.Initiatives {
			assert.ElementsMatch(t, m.GoneListedBy[r.ID], r.Missing, "%s on the %s lane", r.ID, lane)
			for _, id := range m.GoneListedBy[r.ID] {
				assert.Contains(t, warned, id, "%s on the %s lane: a warning names %s", r.ID, lane, id)
			}
		}
	}
	for id, gone := range m.GoneListedBy {
		for _, lane := range []string{"adapter", "native"} {
			var st row
			dataOf(t, scaleCall(t, m, "initiative:status", lane, fmt.Sprintf(`{"id":%q}`, id)), &st)
			assert.ElementsMatch(t, gone, st.Missing, "%s on the %s lane", id, lane)
			for _, r := range list.Initiatives {
				if r.ID == id {
					assert.Equal(t, r.Total, st.Progress.Total, "%s: missing WUs are not counted", id)
				}
			}
		}
	}
}

// metrics never reports a negative cycle time, whatever the window, on either lane.
func TestRealDataCycleTimesAreNeverNegative(t *testing.T) {
	m := realData(t)
	for _, lane := range []string{"adapter", "native"} {
		for _, days := range []int{7, 30, 430} {
			var met struct {
				Lanes []struct {
					Lane              string
					Completed         int
					AverageCycleHours float64 `json:"average_cycle_hours"`
					MedianCycleHours  float64 `json:"median_cycle_hours"`
				}
				DORA struct {
					LeadTime struct {
						AverageHours float64 `json:"average_hours"`
						MedianHours  float64 `json:"median_hours"`
					} `json:"lead_time"`
				}
			}
			dataOf(t, scaleCall(t, m, "metrics", lane, fmt.Sprintf(`{"days":%d}`, days)), &met)
			for _, l := range met.Lanes {
				assert.GreaterOrEqual(t, l.AverageCycleHours, 0.0, "%s over %d days (%s)", l.Lane, days, lane)
				assert.GreaterOrEqual(t, l.MedianCycleHours, 0.0, "%s over %d days (%s)", l.Lane, days, lane)
			}
			assert.GreaterOrEqual(t, met.DORA.LeadTime.MedianHours, 0.0, "lead time over %d days (%s)", days, lane)
		}
	}
}

// A closed WU whose events end active (claimed again, never released) is a mismatch that
// wu:repair reconciles towards ready with a release, after which state:doctor passes.
// Runs on a private 1× workspace: it writes.
func TestRealDataClosedButActiveIsRepairedByRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: generates a 1,265-WU workspace")
	}
	m := privateWorkspace(t, t.TempDir())
	id := m.ReleasedThenClosed[0]
	reclaim := delivery.Event{Type: delivery.EventClaim, WUID: id, Timestamp: delivery.Timestamp(m.Now.Add(-time.Hour)),
		Lane: "Framework: Core", Title: "claimed again by mistake"}
	require.NoError(t, delivery.AppendEvents(m.Dir, reclaim))

	var check struct {
		Issues []struct{ ID, Code, Action string }
	}
	out := scaleCall(t, m, "wu:repair", "adapter", fmt.Sprintf(`{"id":%q,"check":true}`, id))
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeCheckFailed, out.Error.Code)
	raw, err := json.Marshal(out.Data)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &check))
	require.Len(t, check.Issues, 1)
	assert.Equal(t, "STATUS_MISMATCH", check.Issues[0].Code)

	var repaired struct {
		Issues []struct {
			Code     string
			Repaired bool
			Action   string
		}
	}
	dataOf(t, scaleCall(t, m, "wu:repair", "adapter", fmt.Sprintf(`{"id":%q}`, id)), &repaired)
	require.Len(t, repaired.Issues, 1)
	assert.True(t, repaired.Issues[0].Repaired)
	assert.Equal(t, "append events: release", repaired.Issues[0].Action)
	log, err := delivery.LoadEvents(m.Dir)
	require.NoError(t, err)
	state, _ := log.State(id)
	assert.Equal(t, delivery.StatusReady, state)

	var doctor struct{ Issues []struct{ Code string } }
	dataOf(t, scaleCall(t, m, "state:doctor", "adapter", `{}`), &doctor)
	assert.Empty(t, doctor.Issues)
}

// state:bootstrap rebuilds the log of a mature project from its specs: every WU but the
// closed ones gets events, date-only completions included, and the result is consistent
// (state:doctor finds nothing). Runs on a private 1× workspace: it writes.
func TestRealDataBootstrapIsConsistent(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: generates a 1,265-WU workspace")
	}
	m := privateWorkspace(t, t.TempDir())
	var boot struct {
		Skipped []string
		DryRun  bool `json:"dry_run"`
	}
	out := scaleCall(t, m, "state:bootstrap", "adapter", `{"execute":true,"force":true}`)
	dataOf(t, out, &boot)
	assert.False(t, boot.DryRun)
	assert.ElementsMatch(t, m.Closed, boot.Skipped, "only closed WUs are skipped")
	for _, w := range warningsOf(out) {
		assert.NotContains(t, w, "not a timestamp")
	}
	var doctor struct {
		Issues []struct{ Code, Subject string }
	}
	dataOf(t, scaleCall(t, m, "state:doctor", "adapter", `{}`), &doctor)
	assert.Empty(t, doctor.Issues)
}
