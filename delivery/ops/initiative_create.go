package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// InitiativeCreateInput is initiative:create's input, its argv already checked (a valid
// priority and target date). A nil pointer is a flag that was not given: the id and slug
// then take their defaults and the owner is left out, while a given "" is a value (an
// empty id or slug fails the pattern check, an empty owner is written).
type InitiativeCreateInput struct {
	Title       string
	ID, Slug    *string
	Description string
	// Priority is the --priority value; "" is its default P2.
	Priority string
	Owner    *string
	// TargetDate is a YYYY-MM-DD date; "" leaves target_date out.
	TargetDate     string
	Phases         []string
	SuccessMetrics []string
}

// InitiativeCreateData is initiative:create's JSON data.
type InitiativeCreateData struct {
	ID     string  `json:"id"`
	Slug   string  `json:"slug"`
	Path   string  `json:"path"`
	Status string  `json:"status"`
	Commit *Commit `json:"commit"`
}

var (
	initIDRe   = regexp.MustCompile(`^INIT-[0-9A-Z][0-9A-Z-]*$`)
	initSlugRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	nonAlnumRe = regexp.MustCompile(`[^a-z0-9]+`)
)

// InitiativeCreate is corpus §3.5 initiative:create: it checks the id and slug patterns and
// their uniqueness, writes <initiativesDir>/<id>.yaml in the spec's key order and commits
// it. Nothing is written when a check fails. Notes.Headline is "Created <id>: <title>".
func InitiativeCreate(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in InitiativeCreateInput) (InitiativeCreateData, Notes, error) {
	var notes Notes
	title := in.Title
	var id string
	if in.ID != nil {
		id = *in.ID
	} else {
		next, err := delivery.NextInitiativeID(ws)
		if err != nil {
			return InitiativeCreateData{}, notes, err
		}
		id = next
	}
	var slug string
	if in.Slug != nil {
		slug = *in.Slug
	} else {
		slug = strings.Trim(nonAlnumRe.ReplaceAllString(strings.ToLower(title), "-"), "-")
	}
	var problems []string
	if !initIDRe.MatchString(id) {
		problems = append(problems, fmt.Sprintf("id %q does not match INIT-<id> (upper-case letters, digits and -)", id))
	}
	if !initSlugRe.MatchString(slug) {
		problems = append(problems, fmt.Sprintf("slug %q is not kebab-case (a-z, 0-9 and single -)", slug))
	}
	if strings.TrimSpace(title) == "" {
		problems = append(problems, "title must not be empty")
	}
	if len(problems) > 0 {
		return InitiativeCreateData{}, notes, delivery.Errorf(tool.CodeValidation, "%s", problems[0]).WithDetails(map[string]any{"errors": problems})
	}
	all, err := delivery.ListInitiatives(ws)
	if err != nil {
		return InitiativeCreateData{}, notes, err
	}
	rel := ws.InitiativePath(id)
	if _, err := os.Stat(ws.Abs(rel)); err == nil {
		return InitiativeCreateData{}, notes, delivery.Errorf(tool.CodeAlreadyExists, "initiative %s already exists (%s)", id, rel)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return InitiativeCreateData{}, notes, delivery.Errorf(tool.CodeIOError, "stat %s: %w", rel, err)
	}
	for _, other := range all {
		if other.Slug == slug {
			return InitiativeCreateData{}, notes, delivery.Errorf(tool.CodeAlreadyExists, "slug %q is already used by %s", slug, other.ID)
		}
	}

	priority := in.Priority
	if priority == "" {
		priority = "P2"
	}
	m := storage.NewMap()
	storage.MapSet(m, "id", storage.StrNode(id))
	storage.MapSet(m, "slug", storage.StrNode(slug))
	storage.MapSet(m, "title", storage.StrNode(title))
	storage.MapSet(m, "description", storage.StrNode(in.Description))
	storage.MapSet(m, "status", storage.StrNode("draft"))
	storage.MapSet(m, "priority", storage.StrNode(priority))
	if in.Owner != nil {
		storage.MapSet(m, "owner", storage.StrNode(*in.Owner))
	}
	storage.MapSet(m, "created", storage.DateNode(delivery.Date(rt.Now())))
	if in.TargetDate != "" {
		storage.MapSet(m, "target_date", storage.DateNode(in.TargetDate))
	}
	phases := storage.NewSeq()
	for i, p := range in.Phases {
		phases.Content = append(phases.Content, PhaseNode(i+1, p, "pending"))
	}
	if len(phases.Content) > 0 {
		phases.Style = 0
	}
	storage.MapSet(m, "phases", phases)
	storage.MapSet(m, "success_metrics", storage.StrSeq(in.SuccessMetrics))
	storage.MapSet(m, "labels", storage.StrSeq(nil))
	ini := &delivery.Initiative{Path: rel, Doc: &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{m}}}
	// The initiatives directory itself (the legacy command made "<dir>/..yaml", the
	// InitiativePath of ".", a stray empty directory the spec never asks for).
	dir := filepath.Dir(ws.Abs(rel))
	if err := storage.JournalMkdir(dir); err != nil {
		return InitiativeCreateData{}, notes, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return InitiativeCreateData{}, notes, delivery.Errorf(tool.CodeIOError, "create %s: %w", ws.Config.InitiativesDir, err)
	}
	if err := delivery.WriteInitiative(ws.Root, ini); err != nil {
		return InitiativeCreateData{}, notes, err
	}
	cm, err := CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("docs: create %s for %s", strings.ToLower(id), delivery.CutRunes(strings.ToLower(title), 50)), rel)
	if err != nil {
		return InitiativeCreateData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Created %s: %s", id, title)
	return InitiativeCreateData{ID: id, Slug: slug, Path: rel, Status: "draft", Commit: cm}, notes, nil
}
