package ops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUBriefInput is wu:brief's input.
type WUBriefInput struct {
	// ID is the WU to brief (required; its form is the shell's check).
	ID string
	// Client is the agent client; "" is agents.defaultClient.
	Client string
	// NoContext leaves the memory context out of the prompt.
	NoContext bool
	// EvidenceOnly records the evidence without returning the prompt.
	EvidenceOnly bool
}

// WUBriefData is wu:brief's JSON data; prompt is null with --evidence-only.
type WUBriefData struct {
	ID           string  `json:"id"`
	Client       string  `json:"client"`
	EvidenceOnly bool    `json:"evidence_only"`
	Prompt       *string `json:"prompt"`
	PromptSHA256 string  `json:"prompt_sha256"`
	PromptLength int     `json:"prompt_length"`
}

// WUBrief is corpus §3.1 wu:brief: the handoff prompt of a WU, with the checkpoint event
// that records it appended (nothing committed). The workspace's WUKeys must have been
// checked. Notes.Text is the prompt, or the evidence headline with EvidenceOnly.
func WUBrief(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUBriefInput) (WUBriefData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUBriefData{}, notes, err
	}
	client, err := BriefClient(ws, in.Client)
	if err != nil {
		return WUBriefData{}, notes, err
	}
	br, err := Brief(ws, rt, &notes, w, client, in.NoContext, in.EvidenceOnly)
	if err != nil {
		return WUBriefData{}, notes, err
	}
	data := WUBriefData{ID: w.ID, Client: client, EvidenceOnly: in.EvidenceOnly, PromptSHA256: br.SHA256, PromptLength: br.Length}
	if in.EvidenceOnly {
		notes.Text = "Recorded brief evidence for " + w.ID
		return data, notes, nil
	}
	data.Prompt = &br.Prompt
	notes.Text = br.Prompt
	return data, notes, nil
}

// BriefResult is a generated prompt and its attestation values.
type BriefResult struct {
	Prompt string
	SHA256 string
	Length int
}

// Brief builds the prompt of w for a client and appends the wu:brief checkpoint event
// (wu:delegate briefs the same way). Memory warnings go to notes.
func Brief(ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, w *delivery.WU, client string, noContext, evidenceOnly bool) (BriefResult, error) {
	mem := ""
	if !noContext {
		if err := ws.Config.Check("software_delivery.memory"); err != nil {
			return BriefResult{}, err
		}
		var err error
		if mem, err = briefMemory(ws, notes, w.ID, w.Lane); err != nil {
			return BriefResult{}, err
		}
	}
	prompt, err := briefPrompt(ws, w, mem)
	if err != nil {
		return BriefResult{}, err
	}
	sum := sha256.Sum256([]byte(prompt))
	note := "[wu:brief] generated via " + client
	if evidenceOnly {
		note = "[wu:brief] evidence recorded via " + client
	}
	if err := AppendEvent(ws, rt, delivery.Event{Type: delivery.EventCheckpoint, WUID: w.ID, Note: note,
		Progress: "wu:brief executed", NextSteps: "client=" + client}); err != nil {
		return BriefResult{}, err
	}
	return BriefResult{Prompt: prompt, SHA256: hex.EncodeToString(sum[:]), Length: len(prompt)}, nil
}

// BriefClient is the client flag's value, else agents.defaultClient.
func BriefClient(ws *delivery.Workspace, flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if err := ws.Config.Check("software_delivery.agents"); err != nil {
		return "", err
	}
	return ws.Config.AgentsDefaultClient, nil
}

// briefPrompt renders the wu:brief handoff prompt (corpus §3.1) for w: markdown with LF
// line endings. memory is the mem:context text ("" to omit the section).
func briefPrompt(ws *delivery.Workspace, w *delivery.WU, memory string) (string, error) {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	list := func(items []string) {
		if len(items) == 0 {
			line("(none)")
		}
		for _, it := range items {
			line("- %s", it)
		}
	}
	line("# %s: %s", w.ID, w.Title)
	line("")
	worktree := w.WorktreePath
	if worktree == "" {
		worktree = "(none)"
	}
	typ, prio := w.Type, w.Priority
	if typ == "" {
		typ = "feature"
	}
	if prio == "" {
		prio = "P2"
	}
	line("- Lane: %s", w.Lane)
	line("- Type: %s", typ)
	line("- Priority: %s", prio)
	line("- Status: %s", w.NormStatus())
	line("- Worktree: %s", worktree)
	line("")
	line("## Description")
	line("")
	if d := strings.TrimRight(w.Description, "\n"); d != "" {
		line("%s", d)
	} else {
		line("(none)")
	}
	line("")
	line("## Acceptance criteria")
	line("")
	if len(w.AcceptanceGroups) > 0 {
		for i, g := range w.AcceptanceGroups {
			if i > 0 {
				line("")
			}
			line("### %s", g.Key)
			line("")
			list(g.Items)
		}
	} else {
		list(w.Acceptance)
	}
	line("")
	line("## Code paths")
	line("")
	list(w.CodePaths)
	line("")
	line("## Tests")
	line("")
	var tests []string
	for _, k := range []struct {
		kind  string
		items []string
	}{{"unit", w.Tests.Unit}, {"integration", w.Tests.Integration}, {"e2e", w.Tests.E2E}, {"manual", w.Tests.Manual}} {
		for _, it := range k.items {
			tests = append(tests, k.kind+": "+it)
		}
	}
	list(tests)
	if n := strings.TrimRight(w.Notes, "\n"); n != "" {
		line("")
		line("## Notes")
		line("")
		line("%s", n)
	}
	constraints, err := os.ReadFile(ws.Abs(delivery.ConstraintsFile))
	switch {
	case err == nil:
		line("")
		line("## Constraints")
		line("")
		line("%s", strings.TrimRight(string(constraints), "\n"))
	case !errors.Is(err, fs.ErrNotExist):
		return "", delivery.Errorf(tool.CodeIOError, "read %s: %w", delivery.ConstraintsFile, err)
	}
	if m := strings.TrimRight(memory, "\n"); m != "" {
		line("")
		line("## Memory context")
		line("")
		line("%s", m)
	}
	line("")
	line("## Finish")
	line("")
	line("1. Run `delivery wu:prep --id %s` and fix every failing gate.", w.ID)
	line("2. Run `delivery wu:done --id %s` to merge, stamp and complete the WU.", w.ID)
	line("3. Before any handoff, record progress with `delivery mem:checkpoint --wu %s --note …`.", w.ID)
	return b.String(), nil
}

// briefMemory renders the mem:context markdown of a WU (corpus §3.4) within the
// workspace's delegation_context_max_size: project nodes (newest 10, of the WU's lane or
// of none), the WU's non-discovery nodes oldest first, then its open discoveries. Empty
// when nothing matches. It is wu:brief's own rendering, not ops.MemContext: the two
// differ in how they cut at the size cap, and each command's bytes are its own.
func briefMemory(ws *delivery.Workspace, notes *Notes, wuID, lane string) (string, error) {
	mem, err := delivery.LoadMemory(ws.Root)
	if err != nil {
		return "", err
	}
	for _, w := range mem.Warnings() {
		notes.Warn("%s", w)
	}
	var project, own, discoveries []*delivery.MemNode
	for _, n := range mem.Visible() {
		if n.Hidden() {
			continue
		}
		if n.Lifecycle == "project" {
			if l := n.Metadata.String("lane"); l == "" || l == lane {
				project = append(project, n)
			}
		}
		if n.WUID != wuID {
			continue
		}
		if n.Type == "discovery" {
			if mem.Open(n) {
				discoveries = append(discoveries, n)
			}
		} else {
			own = append(own, n)
		}
	}
	delivery.SortNodes(project)
	slices.Reverse(project)
	if len(project) > 10 {
		project = project[:10]
	}
	delivery.SortNodes(own)
	delivery.SortNodes(discoveries)
	lines := []string{"## Memory context for " + wuID}
	for _, sec := range []struct {
		title string
		nodes []*delivery.MemNode
	}{{"Project", project}, {"This WU", own}, {"Discoveries", discoveries}} {
		if len(sec.nodes) == 0 {
			continue
		}
		lines = append(lines, "### "+sec.title)
		for _, n := range sec.nodes {
			lines = append(lines, fmt.Sprintf("- [%s] %s", n.Type, n.Content))
		}
	}
	if len(lines) == 1 {
		return "", nil
	}
	max := ws.Config.DelegationContextMax
	var b strings.Builder
	for _, l := range lines {
		if b.Len()+len(l)+1 > max {
			b.WriteString("(truncated)\n")
			break
		}
		b.WriteString(l + "\n")
	}
	return b.String(), nil
}
