package initiative

import (
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "orchestrate:monitor", Domain: "initiative",
		New: newOrchestrateMonitorApp, Main: convention.Main(newOrchestrateMonitorApp)})
}

func newOrchestrateMonitorApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "orchestrate:monitor",
		Usage: "Report pending and stuck delegations, stale locks and recent signals; --recover times out stuck ones",
		Flags: []cli.Flag{
			convention.Int("threshold", "minutes after which a pending delegation is stuck", 30, convention.Bound(0), nil),
			&cli.StringFlag{Name: "since", Usage: "signals since: a duration (30m, 7d), a YYYY-MM-DD date or an RFC 3339 timestamp", Value: "30m"},
			convention.WU("wu", "only items whose parent or target is this WU", false),
			&cli.BoolFlag{Name: "signals-only", Usage: "report signals only"},
			&cli.BoolFlag{Name: "recover", Usage: "time out stuck delegations and signal their targets"},
			&cli.BoolFlag{Name: "dry-run", Usage: "with --recover, report the actions without taking them"},
		},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("recover")), tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:  orchestrateMonitor,
	})
}

func orchestrateMonitor(c *convention.Call) error {
	now := c.Runtime().Now()
	since, ok := parseSince(c.String("since"), now)
	if !ok {
		// SINCE has no typed flag in package convention yet, so it is checked here.
		return c.Fail(tool.CodeUsage, fmt.Sprintf("invalid value %q for --since: expected duration like 30m, 24h or 7d, YYYY-MM-DD date or RFC 3339 timestamp", c.String("since")), nil)
	}
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	wu := c.Value("wu")
	match := func(ids ...string) bool {
		if wu == "" {
			return true
		}
		for _, id := range ids {
			if id == wu {
				return true
			}
		}
		return false
	}
	data := monitorData{Pending: []monitorPending{}, Stuck: []monitorStuck{}, StaleLocks: []monitorLock{},
		Signals: []delivery.Signal{}, Actions: []string{}}
	threshold := time.Duration(c.Int("threshold")) * time.Minute
	var stuck []delivery.Delegation
	if !c.Bool("signals-only") {
		reg, err := delivery.ReadDelegations(ws.Root)
		if err != nil {
			return err
		}
		for _, w := range reg.Warnings() {
			c.Warn("%s", w)
		}
		recs := append([]delivery.Delegation(nil), reg.Records...)
		delivery.SortByDelegatedAt(recs)
		for _, d := range recs {
			if d.Status != delivery.DelegationPending || !match(d.ParentWUID, d.TargetWUID) {
				continue
			}
			at, err := delivery.ParseTimestamp(d.DelegatedAt)
			age := 0
			if err == nil {
				age = int(now.Sub(at) / time.Minute)
			}
			data.Pending = append(data.Pending, monitorPending{ID: d.ID, Parent: d.ParentWUID, Target: d.TargetWUID,
				Lane: d.Lane, DelegatedAt: d.DelegatedAt, AgeMinutes: age})
			if err != nil || now.Sub(at) > threshold {
				data.Stuck = append(data.Stuck, monitorStuck{ID: d.ID, Parent: d.ParentWUID, Target: d.TargetWUID, AgeMinutes: age})
				stuck = append(stuck, d)
			}
		}
		locks, err := lanelock.List(ws.Root)
		if err != nil {
			return delivery.Errorf(tool.CodeIOError, "%w", err)
		}
		for _, l := range locks {
			if !l.Stale(now, c.Runtime().StaleThreshold()) || !match(l.WUID) {
				continue
			}
			row := monitorLock{Lane: l.Lane, WUID: nullable(l.WUID), Owner: nullable(l.Owner)}
			if ts, err := delivery.ParseTimestamp(l.Timestamp); err == nil && l.Valid {
				age := int(now.Sub(ts) / time.Minute)
				row.AgeMinutes = &age
			}
			data.StaleLocks = append(data.StaleLocks, row)
		}
	}
	store, err := delivery.LoadSignals(ws.Root)
	if err != nil {
		return err
	}
	for _, w := range store.Warnings() {
		c.Warn("%s", w)
	}
	for _, s := range store.Effective() {
		at, err := delivery.ParseTimestamp(s.CreatedAt)
		if err != nil || at.Before(since) || (wu != "" && s.WUID != wu) {
			continue
		}
		data.Signals = append(data.Signals, s)
	}
	for _, d := range stuck {
		desc := fmt.Sprintf("%s (%s -> %s)", d.ID, d.ParentWUID, d.TargetWUID)
		switch {
		case !c.Bool("recover"):
			data.Actions = append(data.Actions, "run with --recover to time out "+desc)
		case c.Bool("dry-run"):
			data.Actions = append(data.Actions, "would time out "+desc)
		default:
			ts := delivery.Timestamp(now)
			upd := d
			upd.Status, upd.CompletedAt = delivery.DelegationTimeout, &ts
			if err := delivery.AppendDelegations(ws.Root, upd); err != nil {
				return err
			}
			sig, err := delivery.SendSignal(ws.Root, c.Runtime(), delivery.SignalInput{
				Message: fmt.Sprintf("Delegation %s to %s timed out", d.ID, d.TargetWUID), WUID: d.TargetWUID, Lane: d.Lane})
			if err != nil {
				return err
			}
			data.Actions = append(data.Actions, fmt.Sprintf("timed out %s, signalled %s", desc, sig.ID))
		}
	}
	return c.Print(monitorText(data), data)
}

// parseSince reads a SINCE value: a DURATION (now − d), a DATE (00:00Z) or an RFC 3339
// timestamp.
// TODO(delivery): move to delivery.ParseSince (flow commands read SINCE too)
func parseSince(s string, now time.Time) (time.Time, bool) {
	if d, ok := convention.ParseDuration(s); ok {
		return now.Add(-d), true
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.UTC(), true
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}

// monitorText renders the five sections, one line per item, "  none" when empty.
func monitorText(d monitorData) string {
	var b strings.Builder
	section := func(title string, lines []string) {
		fmt.Fprintf(&b, "%s\n", title)
		if len(lines) == 0 {
			b.WriteString("  none\n")
		}
		for _, l := range lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	var lines []string
	for _, p := range d.Pending {
		lines = append(lines, fmt.Sprintf("%s  %s -> %s  %s  %s", p.ID, p.Parent, p.Target, p.Lane, p.DelegatedAt))
	}
	section("Pending", lines)
	lines = nil
	for _, s := range d.Stuck {
		lines = append(lines, fmt.Sprintf("%s  %s -> %s  %dm", s.ID, s.Parent, s.Target, s.AgeMinutes))
	}
	section("Stuck", lines)
	lines = nil
	for _, l := range d.StaleLocks {
		age := "?"
		if l.AgeMinutes != nil {
			age = fmt.Sprintf("%dm", *l.AgeMinutes)
		}
		lines = append(lines, fmt.Sprintf("%s  %s  %s  %s", l.Lane, deref(l.WUID), deref(l.Owner), age))
	}
	section("Stale locks", lines)
	lines = nil
	for _, s := range d.Signals {
		state := "unread"
		if s.Read {
			state = "read"
		}
		lines = append(lines, fmt.Sprintf("%s  %s  %s  %s", s.ID, s.CreatedAt, state, s.Message))
	}
	section("Signals", lines)
	section("Actions", d.Actions)
	return b.String()
}

func deref(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

// monitorData is orchestrate:monitor's JSON data.
type monitorData struct {
	Pending    []monitorPending  `json:"pending"`
	Stuck      []monitorStuck    `json:"stuck"`
	StaleLocks []monitorLock     `json:"stale_locks"`
	Signals    []delivery.Signal `json:"signals"`
	Actions    []string          `json:"actions"`
}

type monitorPending struct {
	ID          string `json:"id"`
	Parent      string `json:"parent"`
	Target      string `json:"target"`
	Lane        string `json:"lane"`
	DelegatedAt string `json:"delegated_at"`
	AgeMinutes  int    `json:"age_minutes"`
}

type monitorStuck struct {
	ID         string `json:"id"`
	Parent     string `json:"parent"`
	Target     string `json:"target"`
	AgeMinutes int    `json:"age_minutes"`
}

type monitorLock struct {
	Lane       string  `json:"lane"`
	WUID       *string `json:"wu_id"`
	Owner      *string `json:"owner"`
	AgeMinutes *int    `json:"age_minutes"`
}
