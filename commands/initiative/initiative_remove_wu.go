package initiative

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:remove-wu",
		New: newInitiativeRemoveWUApp, Main: convention.Main(newInitiativeRemoveWUApp)})
}

func newInitiativeRemoveWUApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:remove-wu",
		Usage: "Unlink a WU from an initiative (both sides) and commit",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug", Required: true},
			convention.WU("wu", "WU to unlink", true),
		},
		Destructive: true,
		Action:      initiativeRemoveWU,
	})
}

func initiativeRemoveWU(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	in, err := resolve(ws, c.String("initiative"))
	if err != nil {
		return err
	}
	id := c.Value("wu")
	w, err := delivery.ReadWU(ws, id)
	inList := slices.Contains(in.WUs, id)
	if err != nil && !(inList && delivery.CodeOf(err) == tool.CodeNotFound) {
		return err // a listed id without a file can still be unlinked
	}
	pointsHere := w != nil && (w.Initiative == in.ID || w.Initiative == in.Slug)
	if !inList && !pointsHere {
		return c.Failf(tool.CodeNotFound, "%s is not linked to %s", id, in.ID)
	}
	var paths []string
	if pointsHere {
		w.Delete("initiative")
		w.Delete("phase")
		if err := delivery.WriteWU(ws.Root, w); err != nil {
			return err
		}
		paths = append(paths, w.Path)
	}
	if inList {
		seq := delivery.MapGet(delivery.Root(in.Doc), "wus")
		keep := seq.Content[:0]
		for _, n := range seq.Content {
			if n.Kind != yaml.ScalarNode || n.Value != id {
				keep = append(keep, n)
			}
		}
		seq.Content = keep
		if len(keep) == 0 {
			seq.Style = yaml.FlowStyle
		}
		if err := delivery.WriteInitiative(ws.Root, in); err != nil {
			return err
		}
		paths = append(paths, in.Path)
	}
	cm, err := c.Commit(ws, fmt.Sprintf("docs: unlink %s from %s", lower(id), lower(in.ID)), paths...)
	if err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Unlinked %s from %s", id, in.ID),
		initiativeRemoveWUData{Initiative: in.ID, WU: id, Removed: true, Commit: cm})
}

// initiativeRemoveWUData is initiative:remove-wu's JSON data.
type initiativeRemoveWUData struct {
	Initiative string             `json:"initiative"`
	WU         string             `json:"wu"`
	Removed    bool               `json:"removed"`
	Commit     *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d initiativeRemoveWUData) Committed() *convention.Commit { return d.Commit }
