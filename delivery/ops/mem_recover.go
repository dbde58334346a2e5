package ops

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// MemRecoverKeys are the configuration sections mem:recover reads.
var MemRecoverKeys = []string{"software_delivery.memory.checkpointTtl"}

// MemRecoverMaxSize is the block's size cap without --max-size.
const MemRecoverMaxSize = 8192

// constraintLines is how much of constraints.md the recovery block quotes.
const constraintLines = 40

// MemRecoverInput is mem:recover's input.
type MemRecoverInput struct {
	WU string
	// MaxSize caps the block in bytes (nil: MemRecoverMaxSize).
	MaxSize *int
}

// MemRecoverData is mem:recover's JSON data.
type MemRecoverData struct {
	WU           string  `json:"wu"`
	Context      string  `json:"context"`
	Truncated    bool    `json:"truncated"`
	CheckpointID *string `json:"checkpoint_id"`
}

// MemRecover is corpus §3.4 mem:recover: the post-compaction recovery block for a WU (its
// spec, its newest checkpoint younger than the checkpoint TTL, the first lines of
// .lumenflow/constraints.md, the commands to go on with), capped at MaxSize bytes
// (CappedText). Unreadable memory lines are warnings. Notes.Text is the block.
func MemRecover(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemRecoverInput) (MemRecoverData, Notes, error) {
	var notes Notes
	if err := ws.Config.Check(MemRecoverKeys...); err != nil {
		return MemRecoverData{}, notes, err
	}
	id := in.WU
	w, err := delivery.ReadWU(ws, id)
	if err != nil {
		return MemRecoverData{}, notes, err
	}
	m, err := loadMemory(ws, &notes)
	if err != nil {
		return MemRecoverData{}, notes, err
	}
	now := rt.Now()
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
		return MemRecoverData{}, notes, err
	}
	maxSize := MemRecoverMaxSize
	if in.MaxSize != nil {
		maxSize = *in.MaxSize
	}
	r := CappedText{Max: maxSize}
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
		r.Add("- "+OneLine(a), "")
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
		r.Add(OneLine(last.Content), "")
		r.Add("- created_at: "+last.CreatedAt, "")
		if p := last.Metadata.String("progress"); p != "" {
			r.Add("- progress: "+OneLine(p), "")
		}
		if s := last.Metadata.String("nextSteps"); s != "" {
			r.Add("- next steps: "+OneLine(s), "")
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
	notes.Text = r.Text()
	return MemRecoverData{WU: id, Context: r.Text(), Truncated: r.Truncated(), CheckpointID: checkpointID}, notes, nil
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
