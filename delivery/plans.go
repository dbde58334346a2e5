package delivery

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// PlanURIPrefix is the scheme and host of plan URIs (corpus §1.13).
const PlanURIPrefix = "lumenflow://plans/"

// PlanSections are the template sections of a new plan, in order; References follows.
var PlanSections = []string{"Goal", "Scope", "Approach", "Success Criteria", "Risks", "Open Questions"}

// PlanRequiredSections must hold real content before a plan can be promoted.
var PlanRequiredSections = []string{"Goal", "Scope", "Approach"}

// planMinContent is the least number of characters a required section holds once its
// HTML comment lines are removed.
const planMinContent = 10

var (
	planIDRe  = regexp.MustCompile(PlanIDPattern)
	commentRe = regexp.MustCompile(`^\s*<!--.*-->\s*$`)
)

// ValidPlanID reports whether id names a WU (WU-<n>) or an initiative (INIT-<id>).
func ValidPlanID(id string) bool { return planIDRe.MatchString(id) }

// PlanURI is the lumenflow://plans/<file> URI of a plan file name.
func PlanURI(file string) string { return PlanURIPrefix + file }

// PlanTemplate is the text plan:create writes for id (corpus §3.5 plan:create).
func PlanTemplate(id, title, date string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s Plan - %s\n\nCreated: %s\n\n", id, title, date)
	for _, s := range PlanSections {
		fmt.Fprintf(&b, "## %s\n\n<!-- -->\n\n", s)
	}
	fmt.Fprintf(&b, "## References\n\n- ID: %s\n- Created: %s\n", id, date)
	return b.String()
}

// ResolvePlanRef turns a --plan value (a lumenflow://plans/ URI, a root-relative path
// inside plansDir, or a bare file name in plansDir) into the root-relative path and the
// file name. A reference leaving plansDir is VALIDATION; existence is not checked.
func ResolvePlanRef(ws *Workspace, ref string) (rel, file string, err error) {
	dir := cleanDir(ws.Config.PlansDir)
	name := ref
	switch {
	case strings.HasPrefix(ref, PlanURIPrefix):
		name = strings.TrimPrefix(ref, PlanURIPrefix)
	case strings.HasPrefix(path.Clean(ref), dir+"/"):
		name = strings.TrimPrefix(path.Clean(ref), dir+"/")
	}
	if name == "" || strings.Contains(name, "/") || name == "." || name == ".." {
		return "", "", Errorf(tool.CodeValidation, "plan %q is not a file inside %s", ref, dir)
	}
	return path.Join(dir, name), name, nil
}

// ReadPlan reads a plan file under root: NOT_FOUND when it is missing.
func ReadPlan(ws *Workspace, rel string) (string, error) {
	data, err := os.ReadFile(ws.Abs(rel))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", Errorf(tool.CodeNotFound, "plan %s not found", rel)
		}
		return "", Errorf(tool.CodeIOError, "read %s: %w", rel, err)
	}
	return string(data), nil
}

// WritePlan replaces a plan file atomically, creating its directory.
func WritePlan(ws *Workspace, rel, text string) error {
	if err := storage.JournalMkdir(path.Dir(ws.Abs(rel))); err != nil {
		return err
	}
	if err := os.MkdirAll(path.Dir(ws.Abs(rel)), 0o755); err != nil {
		return Errorf(tool.CodeIOError, "create %s: %w", path.Dir(rel), err)
	}
	if err := storage.WriteFileAtomic(ws.Abs(rel), []byte(text), 0o644); err != nil {
		return Errorf(tool.CodeIOError, "write %s: %w", rel, err)
	}
	return nil
}

// planLines splits text into lines that keep their "\n".
func planLines(text string) []string { return strings.SplitAfter(text, "\n") }

// sectionBounds finds "## <section>": the index of its heading line and of the first line
// after its body (the next "## " heading or len(lines)).
func sectionBounds(lines []string, section string) (head, end int, ok bool) {
	head = -1
	for i, l := range lines {
		t := strings.TrimRight(l, " \t\r\n")
		if head < 0 {
			if t == "## "+section {
				head = i
			}
			continue
		}
		if strings.HasPrefix(l, "## ") {
			return head, i, true
		}
	}
	return head, len(lines), head >= 0
}

// PlanSection returns the body of "## <section>" (the text between its heading and the
// next "## " heading or EOF).
func PlanSection(text, section string) (string, bool) {
	lines := planLines(text)
	head, end, ok := sectionBounds(lines, section)
	if !ok {
		return "", false
	}
	return strings.Join(lines[head+1:end], ""), true
}

// ReplacePlanSection replaces the body of "## <section>" with "\n<content>\n\n".
// A missing section is NOT_FOUND.
func ReplacePlanSection(text, section, content string) (string, error) {
	lines := planLines(text)
	head, end, ok := sectionBounds(lines, section)
	if !ok {
		return "", Errorf(tool.CodeNotFound, "section %q not found", section)
	}
	heading := lines[head]
	if !strings.HasSuffix(heading, "\n") {
		heading += "\n"
	}
	return strings.Join(lines[:head], "") + heading + "\n" + content + "\n\n" + strings.Join(lines[end:], ""), nil
}

// AppendPlanSection adds "<add>\n" at the end of the body of "## <section>" after its
// trailing blank lines, keeping one blank line before the next heading. A missing section
// is NOT_FOUND.
func AppendPlanSection(text, section, add string) (string, error) {
	lines := planLines(text)
	head, end, ok := sectionBounds(lines, section)
	if !ok {
		return "", Errorf(tool.CodeNotFound, "section %q not found", section)
	}
	bodyEnd := end
	for bodyEnd > head+1 && strings.TrimSpace(lines[bodyEnd-1]) == "" {
		bodyEnd--
	}
	var b strings.Builder
	b.WriteString(strings.Join(lines[:bodyEnd], ""))
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	b.WriteString(add + "\n")
	if end < len(lines) {
		b.WriteString("\n")
	}
	b.WriteString(strings.Join(lines[end:], ""))
	return b.String(), nil
}

// PlanCompleteness lists the promotion problems of a plan: every required section that
// is missing or holds fewer than 10 characters once HTML comment lines are removed.
func PlanCompleteness(text string) []string {
	var problems []string
	for _, s := range PlanRequiredSections {
		body, ok := PlanSection(text, s)
		if !ok {
			problems = append(problems, fmt.Sprintf("section %s is missing", s))
			continue
		}
		var kept []string
		for _, l := range strings.Split(body, "\n") {
			if !commentRe.MatchString(l) {
				kept = append(kept, l)
			}
		}
		if n := len([]rune(strings.TrimSpace(strings.Join(kept, "\n")))); n < planMinContent {
			problems = append(problems, fmt.Sprintf("section %s needs at least %d characters of content (has %d)", s, planMinContent, n))
		}
	}
	return problems
}

// PlanApproved reports whether the plan already carries "Status: approved".
func PlanApproved(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "Status: approved" {
			return true
		}
	}
	return false
}

// PromotePlan inserts "Status: approved" and "Approved: <date>" after the first
// "Created:" line, or at the top when there is none. An approved plan is returned
// unchanged with changed false.
func PromotePlan(text, date string) (out string, changed bool) {
	if PlanApproved(text) {
		return text, false
	}
	insert := "Status: approved\nApproved: " + date + "\n"
	lines := planLines(text)
	for i, l := range lines {
		if strings.HasPrefix(l, "Created:") {
			if !strings.HasSuffix(l, "\n") {
				lines[i] = l + "\n"
			}
			return strings.Join(lines[:i+1], "") + insert + strings.Join(lines[i+1:], ""), true
		}
	}
	return insert + text, true
}
