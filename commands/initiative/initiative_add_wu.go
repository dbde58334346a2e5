package initiative

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:add-wu",
		New: newInitiativeAddWUApp, Main: convention.Main(newInitiativeAddWUApp)})
}

func newInitiativeAddWUApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:add-wu",
		Usage: "Link WUs to an initiative (both sides) and commit",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug", Required: true},
			&cli.StringSliceFlag{Name: "wu", Usage: "WU id (WU-<n>), once per WU", Required: true},
			convention.Int("phase", "phase of the initiative the WUs belong to", 0, convention.Bound(1), nil),
		},
		Action: initiativeAddWU,
	})
}

func initiativeAddWU(c *convention.Call) error {
	ids := c.Strings("wu")
	for _, id := range ids {
		if !delivery.ValidWUID(id) {
			return c.Fail(tool.CodeUsage, fmt.Sprintf("invalid value %q for --wu: expected WU-<number>", id), nil)
		}
	}
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	in, err := resolve(ws, c.String("initiative"))
	if err != nil {
		return err
	}
	res, err := linkWUs(ws, in, ids, c.Int("phase"))
	if err != nil {
		return err
	}
	var cm *convention.Commit
	if len(res.paths) > 0 {
		subject := fmt.Sprintf("docs: link %s to %s", lower(strings.Join(res.linked, "")), lower(in.ID))
		if len(res.linked) != 1 {
			subject = fmt.Sprintf("docs: link %d wus to %s", len(res.linked), lower(in.ID))
		}
		if cm, err = c.Commit(ws, subject, res.paths...); err != nil {
			return err
		}
	}
	headline := fmt.Sprintf("Linked %s to %s", strings.Join(res.linked, ", "), in.ID)
	if len(res.linked) == 0 {
		headline = fmt.Sprintf("Already linked to %s", in.ID)
	}
	return c.Result(headline, initiativeAddWUData{Initiative: in.ID, Linked: res.linked,
		AlreadyLinked: res.already, Commit: cm})
}

// linkResult is what linkWUs changed: the WUs newly linked, those already linked, and the
// files written.
type linkResult struct {
	linked, already, paths []string
}

// linkWUs sets each WU's initiative (and phase when > 0) and appends it to the
// initiative's wus list. Every WU is read and checked before anything is written: a WU
// linked to another initiative is VALIDATION (unlink it first) and nothing changes.
// TODO(delivery): move to delivery.LinkWUs
func linkWUs(ws *delivery.Workspace, in *delivery.Initiative, ids []string, phase int) (linkResult, error) {
	res := linkResult{linked: []string{}, already: []string{}}
	var wus []*delivery.WU
	var problems []string
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		w, err := delivery.ReadWU(ws, id)
		if err != nil {
			return res, err
		}
		if w.Initiative != "" && w.Initiative != in.ID && w.Initiative != in.Slug {
			problems = append(problems, fmt.Sprintf("%s is linked to %s; unlink it first", id, w.Initiative))
		}
		wus = append(wus, w)
	}
	if len(problems) > 0 {
		return res, delivery.Errorf(tool.CodeValidation, "%s", problems[0]).WithDetails(map[string]any{"errors": problems})
	}
	list := append([]string(nil), in.WUs...)
	for _, w := range wus {
		changed := false
		if w.Initiative != in.ID && w.Initiative != in.Slug {
			w.Set("initiative", delivery.StrNode(in.ID))
			changed = true
		}
		if phase > 0 && w.Phase != phase {
			w.Set("phase", delivery.IntNode(int64(phase)))
			changed = true
		}
		if changed {
			if err := delivery.WriteWU(ws.Root, w); err != nil {
				return res, err
			}
			res.paths = append(res.paths, w.Path)
		}
		if !slices.Contains(list, w.ID) {
			list = append(list, w.ID)
			changed = true
		}
		if changed {
			res.linked = append(res.linked, w.ID)
		} else {
			res.already = append(res.already, w.ID)
		}
	}
	if len(list) != len(in.WUs) {
		appendItems(delivery.Root(in.Doc), "wus", list[len(in.WUs):], true)
		if err := delivery.WriteInitiative(ws.Root, in); err != nil {
			return res, err
		}
		in.Refresh()
		res.paths = append(res.paths, in.Path)
	}
	return res, nil
}

// initiativeAddWUData is initiative:add-wu's JSON data.
type initiativeAddWUData struct {
	Initiative    string             `json:"initiative"`
	Linked        []string           `json:"linked"`
	AlreadyLinked []string           `json:"already_linked"`
	Commit        *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d initiativeAddWUData) Committed() *convention.Commit { return d.Commit }
