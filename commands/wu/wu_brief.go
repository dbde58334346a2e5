package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:brief",
		New: newWUBriefApp, Main: convention.Main(newWUBriefApp)})
}

func newWUBriefApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:brief",
		Usage: "Generate the handoff prompt for the agent doing a WU and record the evidence",
		Flags: []cli.Flag{
			convention.WU("id", "the WU to brief", true),
			&cli.StringFlag{Name: "client", Usage: "the agent client (default: agents.defaultClient)"},
			&cli.BoolFlag{Name: "no-context", Usage: "leave out the memory context"},
			&cli.BoolFlag{Name: "evidence-only", Usage: "record the evidence without printing the prompt"},
		},
		Action: wuBrief,
	})
}

func wuBrief(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	client, err := briefClient(c, ws)
	if err != nil {
		return err
	}
	evidenceOnly := c.Bool("evidence-only")
	br, err := briefFor(c, ws, w, client, c.Bool("no-context"), evidenceOnly)
	if err != nil {
		return err
	}
	data := wuBriefData{ID: w.ID, Client: client, EvidenceOnly: evidenceOnly, PromptSHA256: br.SHA256, PromptLength: br.Length}
	if evidenceOnly {
		return c.Result("Recorded brief evidence for "+w.ID, data)
	}
	data.Prompt = &br.Prompt
	return c.Print(br.Prompt, data)
}

// wuBriefData is wu:brief's JSON data; prompt is null with --evidence-only.
type wuBriefData struct {
	ID           string  `json:"id"`
	Client       string  `json:"client"`
	EvidenceOnly bool    `json:"evidence_only"`
	Prompt       *string `json:"prompt"`
	PromptSHA256 string  `json:"prompt_sha256"`
	PromptLength int     `json:"prompt_length"`
}
