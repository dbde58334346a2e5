package wu

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// briefPrompt renders the wu:brief handoff prompt (spec §3.1) for w: markdown with LF
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

// memoryContext renders the mem:context markdown of a WU (spec §3.4) within maxSize
// bytes: project nodes (newest 10, lane-filtered), the WU's non-discovery nodes oldest
// first, then its open discoveries. Empty when nothing matches.
// TODO(delivery): move to delivery.MemoryContext (mem:context renders the same text).
func memoryContext(c *convention.Call, ws *delivery.Workspace, wuID, lane string) (string, error) {
	mem, err := delivery.LoadMemory(ws.Root)
	if err != nil {
		return "", err
	}
	for _, w := range mem.Warnings() {
		c.Warn("%s", w)
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

// briefFor builds the prompt of w for a client and appends the wu:brief checkpoint event.
func briefFor(c *convention.Call, ws *delivery.Workspace, w *delivery.WU, client string, noContext, evidenceOnly bool) (briefResult, error) {
	mem := ""
	if !noContext {
		if err := ws.Config.Check("software_delivery.memory"); err != nil {
			return briefResult{}, err
		}
		var err error
		if mem, err = memoryContext(c, ws, w.ID, w.Lane); err != nil {
			return briefResult{}, err
		}
	}
	prompt, err := briefPrompt(ws, w, mem)
	if err != nil {
		return briefResult{}, err
	}
	sum := sha256.Sum256([]byte(prompt))
	note := "[wu:brief] generated via " + client
	if evidenceOnly {
		note = "[wu:brief] evidence recorded via " + client
	}
	if err := appendEvent(c, ws, delivery.Event{Type: delivery.EventCheckpoint, WUID: w.ID, Note: note,
		Progress: "wu:brief executed", NextSteps: "client=" + client}); err != nil {
		return briefResult{}, err
	}
	return briefResult{Prompt: prompt, SHA256: hex.EncodeToString(sum[:]), Length: len(prompt)}, nil
}

// briefResult is a generated prompt and its attestation values.
type briefResult struct {
	Prompt string
	SHA256 string
	Length int
}

// briefClient is --client, else agents.defaultClient.
func briefClient(c *convention.Call, ws *delivery.Workspace) (string, error) {
	if v := c.String("client"); v != "" {
		return v, nil
	}
	if err := ws.Config.Check("software_delivery.agents"); err != nil {
		return "", err
	}
	return ws.Config.AgentsDefaultClient, nil
}
