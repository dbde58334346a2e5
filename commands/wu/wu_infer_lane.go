package wu

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:infer-lane",
		New: newWUInferLaneApp, Main: convention.Main(newWUInferLaneApp)})
}

func newWUInferLaneApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "wu:infer-lane",
		Usage:    "Suggest a lane from code paths and text",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "use this WU's code_paths, title and description", false),
			&cli.StringSliceFlag{Name: "paths", Usage: "a path the work touches (repeatable)"},
			&cli.StringFlag{Name: "desc", Usage: "text describing the work"},
		},
		Rules: []convention.Rule{
			convention.OneOf("id", "paths", "desc"),
			convention.Exclusive("id", "paths"),
			convention.Exclusive("id", "desc"),
		},
		Action: wuInferLane,
	})
}

func wuInferLane(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	if len(ws.Config.Lanes) == 0 {
		return delivery.Errorf(tool.CodeNotFound, "no lane definitions in workspace.yaml (software_delivery.lanes.definitions)")
	}
	paths, text := c.Strings("paths"), c.String("desc")
	if id := c.Value("id"); id != "" {
		w, err := delivery.ReadWU(ws, id)
		if err != nil {
			return err
		}
		paths, text = w.CodePaths, w.Title+"\n"+w.Description
	}
	data := wuInferLaneData{Candidates: []laneScore{}}
	scores := make([]laneScore, 0, len(ws.Config.Lanes))
	for _, l := range ws.Config.Lanes {
		scores = append(scores, laneScore{Lane: l.Name, Score: scoreLane(l, paths, text)})
	}
	// Stable: ties keep definition order.
	sort.SliceStable(scores, func(i, j int) bool { return scores[i].Score > scores[j].Score })
	for _, s := range scores {
		if s.Score > 0 && len(data.Candidates) < 3 {
			data.Candidates = append(data.Candidates, s)
		}
	}
	headline := "No lane matched"
	if best := scores[0]; best.Score > 0 {
		data.Lane, data.Confidence = &best.Lane, best.Score
		headline = fmt.Sprintf("%s (confidence %d)", best.Lane, best.Score)
	}
	return c.Result(headline, data)
}

var keywordSplit = regexp.MustCompile(`[^A-Za-z0-9/+-]+`)

// scoreLane is 10 per lane pattern matching at least one path plus 3 per lane keyword
// found in text (case-insensitive).
// TODO(delivery): move to delivery.InferLane.
func scoreLane(l delivery.LaneDef, paths []string, text string) int {
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

// wuInferLaneData is wu:infer-lane's JSON data; lane is null when nothing scored.
type wuInferLaneData struct {
	Lane       *string     `json:"lane"`
	Confidence int         `json:"confidence"`
	Candidates []laneScore `json:"candidates"`
}

// laneScore is one candidate lane.
type laneScore struct {
	Lane  string `json:"lane"`
	Score int    `json:"score"`
}
