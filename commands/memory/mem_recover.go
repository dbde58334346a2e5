package memory

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:recover", Domain: "memory",
		New: newMemRecoverApp, Main: convention.Main(newMemRecoverApp)})
}

func newMemRecoverApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "mem:recover",
		Usage:    "Render a post-compaction recovery block for a WU",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("wu", "work unit", true),
			convention.Int("max-size", "size cap in bytes", 8192, convention.Bound(1), nil),
		},
		Action: memRecover,
	})
}

// constraintLines is how much of constraints.md the block quotes.
const constraintLines = 40

func memRecover(c *convention.Call) error {
	id := c.Value("wu")
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.memory.checkpointTtl"); err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, id)
	if err != nil {
		return err
	}
	m, err := loadMemory(c, ws)
	if err != nil {
		return err
	}
	now := c.Runtime().Now()
	var last *delivery.MemNode
	for _, n := range m.Visible() {
		if n.WUID != id || n.Type != delivery.MemTypeCheckpoint || now.Sub(n.Created()) > ws.Config.CheckpointTTL {
			continue
		}
		if last == nil || n.Created().After(last.Created()) || (n.Created().Equal(last.Created()) && n.ID > last.ID) {
			last = n
		}
	}
	constraints, err := readConstraints(ws)
	if err != nil {
		return err
	}
	r := ops.CappedText{Max: c.Int("max-size")}
	r.Add("# Recovery context for "+id, "")
	r.Add("## Work unit", "")
	worktree := w.WorktreePath
	if worktree == "" {
		worktree = "(none)"
	}
	for _, l := range []string{"- Title: " + w.Title, "- Lane: " + w.Lane, "- Status: " + w.NormStatus(), "- Worktree: " + worktree} {
		r.Add(l, "")
	}
	r.Add("### Acceptance", "")
	for _, a := range w.Acceptance {
		r.Add("- "+ops.OneLine(a), "")
	}
	r.Add("### Code paths", "")
	for _, p := range w.CodePaths {
		r.Add("- "+p, "")
	}
	r.Add("## Last checkpoint", "")
	var checkpointID *string
	if last == nil {
		r.Add("(none)", "")
	} else {
		checkpointID = &last.ID
		r.Add(ops.OneLine(last.Content), "")
		r.Add("- created_at: "+last.CreatedAt, "")
		if p := last.Metadata.String("progress"); p != "" {
			r.Add("- progress: "+ops.OneLine(p), "")
		}
		if s := last.Metadata.String("nextSteps"); s != "" {
			r.Add("- next steps: "+ops.OneLine(s), "")
		}
	}
	if constraints != nil {
		r.Add("## Constraints", "")
		for _, l := range constraints {
			r.Add(l, "")
		}
	}
	r.Add("## Commands", "")
	for _, l := range []string{
		"- `delivery wu:status --id " + id + "`",
		"- `delivery wu:prep --id " + id + "`",
		"- `delivery wu:done --id " + id + "`",
		"- `delivery mem:checkpoint --wu " + id + " --note \"<progress>\"`",
	} {
		r.Add(l, "")
	}
	return c.Print(r.Text(), memRecoverData{WU: id, Context: r.Text(), Truncated: r.Truncated(), CheckpointID: checkpointID})
}

// readConstraints returns the first lines of .lumenflow/constraints.md, or nil when absent.
func readConstraints(ws *delivery.Workspace) ([]string, error) {
	f, err := os.Open(ws.Abs(delivery.ConstraintsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "read %s: %w", delivery.ConstraintsFile, err)
	}
	defer f.Close()
	lines := []string{}
	sc := bufio.NewScanner(f)
	for len(lines) < constraintLines && sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "read %s: %w", delivery.ConstraintsFile, err)
	}
	return lines, nil
}

// memRecoverData is mem:recover's JSON data.
type memRecoverData struct {
	WU           string  `json:"wu"`
	Context      string  `json:"context"`
	Truncated    bool    `json:"truncated"`
	CheckpointID *string `json:"checkpoint_id"`
}
