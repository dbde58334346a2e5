package state

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "lane:health", Domain: "state",
		New: newLaneHealthApp, Main: convention.Main(newLaneHealthApp)})
}

func newLaneHealthApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "lane:health",
		Usage: "Check lane definitions against the repository's files (overlaps and gaps)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "verbose", Usage: "list the files no lane covers"},
			&cli.BoolFlag{Name: "no-coverage", Usage: "skip the gap check"},
		},
		ReadOnly:   true,
		Idempotent: true,
		Action:     laneHealth,
	})
}

func laneHealth(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.lanes", "software_delivery.directories"); err != nil {
		return err
	}
	files, err := repoFiles(c.Context(), ws, c.Runtime())
	if err != nil {
		return err
	}
	lanes := ws.Config.Lanes
	for _, l := range lanes {
		if len(l.CodePaths) == 0 {
			c.Warn("lane %q has no code_paths", l.Name)
		}
		if l.WIPLimit > 1 && l.LockPolicy != delivery.LockNone {
			c.Warn("lane %q has wip_limit %d with lock_policy %s (use none to allow parallel WUs)", l.Name, l.WIPLimit, l.LockPolicy)
		}
	}
	data := laneHealthData{Lanes: len(lanes), FilesChecked: len(files), Overlaps: []laneOverlap{},
		SubLaneOverlaps: []laneOverlap{}, Gaps: []string{}}
	pairs := map[[2]int]*laneOverlap{}
	var order [][2]int
	var gaps []string
	for _, f := range files {
		var hit []int
		for i, l := range lanes {
			if matchesAny(l.CodePaths, f) {
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
					pairs[k] = &laneOverlap{Lanes: []string{lanes[k[0]].Name, lanes[k[1]].Name}, ExampleFile: f}
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
	if !c.Bool("no-coverage") {
		data.GapCount = len(gaps)
		if len(gaps) > 0 {
			c.Warn("%d file(s) are not covered by any lane", len(gaps))
		}
		if c.Bool("verbose") {
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
	switch {
	case len(lanes) == 0:
		return checkFailed(c, b.String(), data, tool.CodeCheckFailed, "no lanes are defined in workspace.yaml")
	case len(data.Overlaps) > 0:
		return checkFailed(c, b.String(), data, tool.CodeCheckFailed, fmt.Sprintf("%d lane overlap(s) found", len(data.Overlaps)))
	}
	return c.Print(b.String(), data)
}

// laneOverlap is the files two lanes both claim.
type laneOverlap struct {
	Lanes       []string `json:"lanes"`
	FileCount   int      `json:"file_count"`
	ExampleFile string   `json:"example_file"`
}

// laneHealthData is lane:health's JSON data.
type laneHealthData struct {
	Lanes        int           `json:"lanes"`
	FilesChecked int           `json:"files_checked"`
	Overlaps     []laneOverlap `json:"overlaps"`
	// SubLaneOverlaps are the files a lane shares with one of its sub-lanes: reported,
	// never a conflict (docs/real-data.md).
	SubLaneOverlaps []laneOverlap `json:"sub_lane_overlaps"`
	GapCount        int           `json:"gap_count"`
	Gaps            []string      `json:"gaps"`
	Healthy         bool          `json:"healthy"`
}
