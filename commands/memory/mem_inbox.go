package memory

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
)

func init() {
	commands.Register(commands.Command{Name: "mem:inbox", Domain: "memory",
		New: newMemInboxApp, Main: convention.Main(newMemInboxApp)})
}

func newMemInboxApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:inbox",
		Usage: "List signals (unread by default); mark them read only with --mark",
		Flags: []cli.Flag{
			sinceFlag("since", "only signals created at or after this"),
			convention.WU("wu", "only signals of this work unit (default: the current session's)", false),
			&cli.StringFlag{Name: "lane", Usage: "only signals of this lane"},
			&cli.BoolFlag{Name: "all", Usage: "include read signals"},
			&cli.BoolFlag{Name: "mark", Usage: "append a read receipt for each unread signal shown"},
		},
		Action: memInbox,
	})
}

func memInbox(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	wu, _ := sessionDefaults(c, ws, c.Value("wu"), "")
	lane, all := c.String("lane"), c.Bool("all")
	rt := c.Runtime()
	since, bySince := sinceInstant(c.Value("since"), rt.Now())
	store, err := loadSignals(c, ws)
	if err != nil {
		return err
	}
	shown, marked := []delivery.Signal{}, []string{}
	for _, s := range store.Effective() {
		if s.Read && !all {
			continue
		}
		if bySince {
			if t, err := delivery.ParseTimestamp(s.CreatedAt); err != nil || t.Before(since) {
				continue
			}
		}
		if (wu != "" && s.WUID != wu) || (lane != "" && s.Lane != lane) {
			continue
		}
		shown = append(shown, s)
		if !s.Read {
			marked = append(marked, s.ID)
		}
	}
	if !c.Bool("mark") {
		marked = []string{}
	} else if err := delivery.MarkSignalsRead(ws.Root, marked, delivery.Timestamp(rt.Now())); err != nil {
		return err
	}
	return c.Print(inboxText(shown), memInboxData{Signals: shown, Marked: marked})
}

// inboxText is "<k> signal(s)" then two lines per signal, or "No signals found.".
func inboxText(signals []delivery.Signal) string {
	if len(signals) == 0 {
		return "No signals found.\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d signal(s)\n", len(signals))
	for _, s := range signals {
		head := []string{s.CreatedAt}
		var scope []string
		for _, v := range []string{s.WUID, s.Lane} {
			if v != "" {
				scope = append(scope, v)
			}
		}
		if len(scope) > 0 {
			head = append(head, "["+strings.Join(scope, " | ")+"]")
		}
		if s.Read {
			head = append(head, "(read)")
		}
		fmt.Fprintf(&b, "%s\n  %s: %s\n", strings.Join(head, " "), s.ID, s.Message)
	}
	return b.String()
}

// memInboxData is mem:inbox's JSON data.
type memInboxData struct {
	Signals []delivery.Signal `json:"signals"`
	Marked  []string          `json:"marked"`
}
