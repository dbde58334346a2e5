package ops

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUInferLaneInput is wu:infer-lane's input. The shell checks that ID, or Paths and/or
// Desc, is given (not both kinds).
type WUInferLaneInput struct {
	// ID, when set, takes the paths and text from this WU's code_paths, title and
	// description.
	ID string
	// Paths are the paths the work touches.
	Paths []string
	// Desc is text describing the work.
	Desc string
}

// WUInferLaneData is wu:infer-lane's JSON data; lane is null when nothing scored.
type WUInferLaneData struct {
	Lane       *string     `json:"lane"`
	Confidence int         `json:"confidence"`
	Candidates []LaneScore `json:"candidates"`
}

// LaneScore is one candidate lane.
type LaneScore struct {
	Lane  string `json:"lane"`
	Score int    `json:"score"`
}

// WUInferLane is corpus §3.1 wu:infer-lane: every lane definition scored against the
// paths and text (ScoreLane), the best one suggested (ties go to the earlier
// definition; a best score of 0 suggests none) with the top three positive scores as
// candidates. NOT_FOUND without lane definitions. The workspace's WUKeys must have been
// checked. Notes.Text is the headline.
func WUInferLane(ctx context.Context, ws *delivery.Workspace, in WUInferLaneInput) (WUInferLaneData, Notes, error) {
	var notes Notes
	if len(ws.Config.Lanes) == 0 {
		return WUInferLaneData{}, notes, delivery.Errorf(tool.CodeNotFound, "no lane definitions in workspace.yaml (software_delivery.lanes.definitions)")
	}
	paths, text := in.Paths, in.Desc
	if in.ID != "" {
		w, err := delivery.ReadWU(ws, in.ID)
		if err != nil {
			return WUInferLaneData{}, notes, err
		}
		paths, text = w.CodePaths, w.Title+"\n"+w.Description
	}
	data := WUInferLaneData{Candidates: []LaneScore{}}
	scores := make([]LaneScore, 0, len(ws.Config.Lanes))
	for _, l := range ws.Config.Lanes {
		scores = append(scores, LaneScore{Lane: l.Name, Score: ScoreLane(l, paths, text)})
	}
	// Stable: ties keep definition order.
	sort.SliceStable(scores, func(i, j int) bool { return scores[i].Score > scores[j].Score })
	for _, s := range scores {
		if s.Score > 0 && len(data.Candidates) < 3 {
			data.Candidates = append(data.Candidates, s)
		}
	}
	notes.Text = "No lane matched"
	if best := scores[0]; best.Score > 0 {
		data.Lane, data.Confidence = &best.Lane, best.Score
		notes.Text = fmt.Sprintf("%s (confidence %d)", best.Lane, best.Score)
	}
	return data, notes, nil
}

// keywordSplit separates a lane's name and description into keywords.
var keywordSplit = regexp.MustCompile(`[^A-Za-z0-9/+-]+`)

// ScoreLane is 10 per lane code_paths pattern matching at least one path plus 3 per
// distinct lane keyword (a lower-cased token of at least 3 characters of the lane's name
// and description) found in text, both case-insensitively.
func ScoreLane(l delivery.LaneDef, paths []string, text string) int {
	score := 0
	for _, pat := range l.CodePaths {
		p := strings.ToLower(pat)
		for _, in := range paths {
			if ok, _ := doublestar.Match(p, strings.ToLower(strings.TrimPrefix(in, "./"))); ok {
				score += 10
				break
			}
		}
	}
	lower := strings.ToLower(text)
	var seen []string
	for _, tok := range keywordSplit.Split(l.Name+" "+l.Description, -1) {
		tok = strings.ToLower(tok)
		if len(tok) < 3 || slices.Contains(seen, tok) {
			continue
		}
		seen = append(seen, tok)
		if strings.Contains(lower, tok) {
			score += 3
		}
	}
	return score
}
