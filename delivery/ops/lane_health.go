package ops

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// LaneHealthKeys are the configuration sections lane:health reads.
var LaneHealthKeys = []string{"software_delivery.lanes", "software_delivery.directories"}

// LaneHealthInput is lane:health's input.
type LaneHealthInput struct {
	// Verbose lists the gap files.
	Verbose bool
	// NoCoverage skips the gap check.
	NoCoverage bool
}

// LaneOverlap is the files two lanes both claim.
type LaneOverlap struct {
	Lanes       []string `json:"lanes"`
	FileCount   int      `json:"file_count"`
	ExampleFile string   `json:"example_file"`
}

// LaneHealthData is lane:health's JSON data.
type LaneHealthData struct {
	Lanes        int           `json:"lanes"`
	FilesChecked int           `json:"files_checked"`
	Overlaps     []LaneOverlap `json:"overlaps"`
	// SubLaneOverlaps are the files a lane shares with one of its sub-lanes: reported,
	// never a conflict (docs/real-data.md).
	SubLaneOverlaps []LaneOverlap `json:"sub_lane_overlaps"`
	GapCount        int           `json:"gap_count"`
	Gaps            []string      `json:"gaps"`
	Healthy         bool          `json:"healthy"`
}

// LaneHealth is corpus §3.2 lane:health: the repository's files against the lanes'
// code_paths, overlaps grouped by lane pair (a lane and its sub-lane apart), gaps as a
// warning. When the check fails (no lanes, or an overlap) the error is CHECK_FAILED and
// the data is still the full report, as the command's failure envelope carries it.
// Notes.Text is the whole text output, printed on failure too.
func LaneHealth(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in LaneHealthInput) (LaneHealthData, Notes, error) {
	var notes Notes
	files, err := delivery.RepoFiles(ctx, ws, rt)
	if err != nil {
		return LaneHealthData{}, notes, err
	}
	lanes := ws.Config.Lanes
	for _, l := range lanes {
		if len(l.CodePaths) == 0 {
			notes.Warn("lane %q has no code_paths", l.Name)
		}
		if l.WIPLimit > 1 && l.LockPolicy != delivery.LockNone {
			notes.Warn("lane %q has wip_limit %d with lock_policy %s (use none to allow parallel WUs)", l.Name, l.WIPLimit, l.LockPolicy)
		}
	}
	data := LaneHealthData{Lanes: len(lanes), FilesChecked: len(files), Overlaps: []LaneOverlap{},
		SubLaneOverlaps: []LaneOverlap{}, Gaps: []string{}}
	pairs := map[[2]int]*LaneOverlap{}
	var order [][2]int
	var gaps []string
	for _, f := range files {
		var hit []int
		for i, l := range lanes {
			if delivery.MatchGlobs(l.CodePaths, f) {
				hit = append(hit, i)
			}
		}
		if len(hit) == 0 {
			gaps = append(gaps, f)
		}
		for a := 0; a < len(hit); a++ {
			for b := a + 1; b < len(hit); b++ {
				k := [2]int{hit[a], hit[b]}
				if pairs[k] == nil {
					pairs[k] = &LaneOverlap{Lanes: []string{lanes[k[0]].Name, lanes[k[1]].Name}, ExampleFile: f}
					order = append(order, k)
				}
				pairs[k].FileCount++
			}
		}
	}
	slices.SortFunc(order, func(a, b [2]int) int { return cmp.Or(a[0]-b[0], a[1]-b[1]) })
	for _, k := range order {
		o := *pairs[k]
		a, b := lanes[k[0]].Name, lanes[k[1]].Name
		switch {
		case delivery.IsSubLane(a, b):
			data.SubLaneOverlaps = append(data.SubLaneOverlaps, o)
		case delivery.IsSubLane(b, a):
			o.Lanes = []string{b, a} // parent first
			data.SubLaneOverlaps = append(data.SubLaneOverlaps, o)
		default:
			data.Overlaps = append(data.Overlaps, o)
		}
	}
	if !in.NoCoverage {
		data.GapCount = len(gaps)
		if len(gaps) > 0 {
			notes.Warn("%d file(s) are not covered by any lane", len(gaps))
		}
		if in.Verbose {
			data.Gaps = append(data.Gaps, gaps...)
		}
	}
	data.Healthy = len(lanes) > 0 && len(data.Overlaps) == 0
	var b strings.Builder
	fmt.Fprintf(&b, "Lanes: %d, files: %d, overlaps: %d, gaps: %d\n", data.Lanes, data.FilesChecked, len(data.Overlaps), data.GapCount)
	for _, o := range data.Overlaps {
		fmt.Fprintf(&b, "  overlap: %s / %s (%d files, e.g. %s)\n", o.Lanes[0], o.Lanes[1], o.FileCount, o.ExampleFile)
	}
	for _, o := range data.SubLaneOverlaps {
		fmt.Fprintf(&b, "  sub-lane: %s / %s (%d files, e.g. %s)\n", o.Lanes[0], o.Lanes[1], o.FileCount, o.ExampleFile)
	}
	for _, g := range data.Gaps {
		fmt.Fprintf(&b, "  gap: %s\n", g)
	}
	notes.Text = b.String()
	switch {
	case len(lanes) == 0:
		return data, notes, delivery.Errorf(tool.CodeCheckFailed, "no lanes are defined in workspace.yaml")
	case len(data.Overlaps) > 0:
		return data, notes, delivery.Errorf(tool.CodeCheckFailed, "%d lane overlap(s) found", len(data.Overlaps))
	}
	return data, notes, nil
}
