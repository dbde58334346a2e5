package initiative

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:create",
		New: newInitiativeCreateApp, Main: convention.Main(newInitiativeCreateApp)})
}

func newInitiativeCreateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:create",
		Usage: "Create an initiative file and commit it",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "title", Usage: "initiative title", Required: true},
			&cli.StringFlag{Name: "id", Usage: "initiative id (default: the next INIT-<n>)"},
			&cli.StringFlag{Name: "slug", Usage: "unique kebab-case slug (default: kebab of the title)"},
			&cli.StringFlag{Name: "description", Usage: "what the initiative delivers"},
			convention.Enum("priority", "priority", "P2", "P0", "P1", "P2", "P3"),
			&cli.StringFlag{Name: "owner", Usage: "owner of the initiative"},
			convention.Date("target-date", "target date"),
			&cli.StringSliceFlag{Name: "phase", Usage: "phase title, once per phase"},
			&cli.StringSliceFlag{Name: "success-metric", Usage: "success metric, once per metric"},
		},
		Action: initiativeCreate,
	})
}

var (
	initIDRe   = regexp.MustCompile(`^INIT-[0-9A-Z][0-9A-Z-]*$`)
	slugRe     = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	nonAlnumRe = regexp.MustCompile(`[^a-z0-9]+`)
)

func initiativeCreate(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	title := c.String("title")
	id := c.String("id")
	if !c.IsSet("id") {
		if id, err = delivery.NextInitiativeID(ws); err != nil {
			return err
		}
	}
	slug := c.String("slug")
	if !c.IsSet("slug") {
		slug = strings.Trim(nonAlnumRe.ReplaceAllString(strings.ToLower(title), "-"), "-")
	}
	var problems []string
	if !initIDRe.MatchString(id) {
		problems = append(problems, fmt.Sprintf("id %q does not match INIT-<id> (upper-case letters, digits and -)", id))
	}
	if !slugRe.MatchString(slug) {
		problems = append(problems, fmt.Sprintf("slug %q is not kebab-case (a-z, 0-9 and single -)", slug))
	}
	if strings.TrimSpace(title) == "" {
		problems = append(problems, "title must not be empty")
	}
	if len(problems) > 0 {
		return c.Fail(tool.CodeValidation, problems[0], map[string]any{"errors": problems})
	}
	all, err := delivery.ListInitiatives(ws)
	if err != nil {
		return err
	}
	rel := ws.InitiativePath(id)
	if _, err := os.Stat(ws.Abs(rel)); err == nil {
		return c.Failf(tool.CodeAlreadyExists, "initiative %s already exists (%s)", id, rel)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return delivery.Errorf(tool.CodeIOError, "stat %s: %w", rel, err)
	}
	for _, in := range all {
		if in.Slug == slug {
			return c.Failf(tool.CodeAlreadyExists, "slug %q is already used by %s", slug, in.ID)
		}
	}

	date := delivery.Date(c.Runtime().Now())
	m := delivery.NewMap()
	delivery.MapSet(m, "id", delivery.StrNode(id))
	delivery.MapSet(m, "slug", delivery.StrNode(slug))
	delivery.MapSet(m, "title", delivery.StrNode(title))
	delivery.MapSet(m, "description", delivery.StrNode(c.String("description")))
	delivery.MapSet(m, "status", delivery.StrNode("draft"))
	delivery.MapSet(m, "priority", delivery.StrNode(c.Value("priority")))
	if c.IsSet("owner") {
		delivery.MapSet(m, "owner", delivery.StrNode(c.String("owner")))
	}
	delivery.MapSet(m, "created", delivery.DateNode(date))
	if c.IsSet("target-date") {
		delivery.MapSet(m, "target_date", delivery.DateNode(c.Value("target-date")))
	}
	phases := delivery.NewSeq()
	for i, p := range c.Strings("phase") {
		phases.Content = append(phases.Content, phaseNode(i+1, p, "pending"))
	}
	if len(phases.Content) > 0 {
		phases.Style = 0
	}
	delivery.MapSet(m, "phases", phases)
	metrics := delivery.StrSeq(c.Strings("success-metric"))
	delivery.MapSet(m, "success_metrics", metrics)
	delivery.MapSet(m, "labels", delivery.StrSeq(nil))
	in := &delivery.Initiative{Path: rel, Doc: &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{m}}}
	delivery.JournalMkdir(ws.Abs(ws.InitiativePath(".")))
	if err := os.MkdirAll(ws.Abs(ws.InitiativePath(".")), 0o755); err != nil {
		return delivery.Errorf(tool.CodeIOError, "create %s: %w", ws.Config.InitiativesDir, err)
	}
	if err := delivery.WriteInitiative(ws.Root, in); err != nil {
		return err
	}
	cm, err := c.Commit(ws, fmt.Sprintf("docs: create %s for %s", lower(id), delivery.CutRunes(strings.ToLower(title), 50)), rel)
	if err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Created %s: %s", id, title),
		initiativeCreateData{ID: id, Slug: slug, Path: rel, Status: "draft", Commit: cm})
}

// phaseNode is one {id, title, status} phase mapping.
func phaseNode(id int, title, status string) *yaml.Node {
	p := delivery.NewMap()
	delivery.MapSet(p, "id", delivery.IntNode(int64(id)))
	delivery.MapSet(p, "title", delivery.StrNode(title))
	delivery.MapSet(p, "status", delivery.StrNode(status))
	return p
}

// initiativeCreateData is initiative:create's JSON data.
type initiativeCreateData struct {
	ID     string             `json:"id"`
	Slug   string             `json:"slug"`
	Path   string             `json:"path"`
	Status string             `json:"status"`
	Commit *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d initiativeCreateData) Committed() *convention.Commit { return d.Commit }
