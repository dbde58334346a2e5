package memory

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:summarize", Domain: "memory",
		New: newMemSummarizeApp, Main: convention.Main(newMemSummarizeApp)})
}

func newMemSummarizeApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:summarize",
		Usage: "Aggregate a WU's memory nodes into one project summary node",
		Flags: []cli.Flag{
			convention.WU("wu", "work unit", true),
			&cli.BoolFlag{Name: "dry-run", Usage: "print the summary without writing"},
		},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:  memSummarize,
	})
}

// summarySourceTypes are the summarised types, in the summary's section order.
var summarySourceTypes = []string{delivery.MemTypeDiscovery, delivery.MemTypeCheckpoint, delivery.MemTypeNote, delivery.MemTypeSession}

// summaryLineMax is the longest content a summary line keeps, in characters.
const summaryLineMax = 200

func memSummarize(c *convention.Call) error {
	wu, dry := c.Value("wu"), c.Bool("dry-run")
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	m, err := loadMemory(c, ws)
	if err != nil {
		return err
	}
	byType := map[string][]*delivery.MemNode{}
	var sources []*delivery.MemNode
	for _, n := range m.Visible() {
		if n.WUID == wu && n.Lifecycle != delivery.LifecycleEphemeral && n.Metadata.String("summarized_into") == "" {
			for _, t := range summarySourceTypes {
				if n.Type == t {
					sources = append(sources, n)
				}
			}
		}
	}
	if len(sources) == 0 {
		return c.Failf(tool.CodeNotFound, "no memory nodes to summarise for %s", wu)
	}
	delivery.SortNodes(sources)
	for _, n := range sources {
		byType[n.Type] = append(byType[n.Type], n)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Summary for %s\nAggregated from %d node(s)\n", wu, len(sources))
	for _, t := range summarySourceTypes {
		if len(byType[t]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "## %s%s(s)\n", strings.ToUpper(t[:1]), t[1:])
		for _, n := range byType[t] {
			b.WriteString("- " + cutContent(n.Content) + "\n")
		}
	}
	content := strings.TrimSuffix(b.String(), "\n")
	now := delivery.Timestamp(c.Runtime().Now())
	summary := newNode(m, delivery.MemTypeSummary, content, now, "summary-"+wu+"-"+now)
	summary.WUID = wu
	ids := make([]string, len(sources))
	for i, n := range sources {
		ids[i] = n.ID
	}
	summary.Meta().Set("source_nodes", ids)
	summary.Meta().Set("source_count", len(sources))
	summary.Meta().Set("summarized_at", now)
	versions := []*delivery.MemNode{summary}
	marked := []string{}
	for _, n := range sources {
		if n.Lifecycle == delivery.LifecycleProject {
			continue
		}
		v := n.Clone()
		v.Meta().Set("summarized_into", summary.ID)
		v.Meta().Set("summarized_at", now)
		v.UpdatedAt = now
		versions = append(versions, v)
		marked = append(marked, n.ID)
	}
	if !dry {
		if err := delivery.AppendMemory(ws.Root, versions...); err != nil {
			return err
		}
	}
	c.Progress("Marked %d node(s) for cleanup", len(marked))
	// The ratio of nodes compacted into the one summary node.
	ratio := math.Round(float64(len(sources))*10) / 10
	return c.Print(content+"\n", memSummarizeData{Summary: summary, Marked: marked, CompactionRatio: ratio, DryRun: dry})
}

// cutContent keeps at most summaryLineMax characters: 197 and "..." when longer.
func cutContent(s string) string {
	if utf8.RuneCountInString(s) <= summaryLineMax {
		return s
	}
	return string([]rune(s)[:summaryLineMax-3]) + "..."
}

// memSummarizeData is mem:summarize's JSON data.
type memSummarizeData struct {
	Summary         *delivery.MemNode `json:"summary"`
	Marked          []string          `json:"marked"`
	CompactionRatio float64           `json:"compaction_ratio"`
	DryRun          bool              `json:"dry_run"`
}
