package ops

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
)

// OrchestrateMonitorInput is orchestrate:monitor's input.
type OrchestrateMonitorInput struct {
	// Threshold is the age after which a pending delegation is stuck.
	Threshold time.Duration
	// Since is the SINCE value of the signals reported.
	Since string
	// WU keeps only the items whose parent or target is this WU ("": all).
	WU string
	// SignalsOnly reports signals only.
	SignalsOnly bool
	// Recover times out the stuck delegations and signals their targets; with DryRun it
	// only says what it would do.
	Recover, DryRun bool
}

// MonitorData is orchestrate:monitor's JSON data.
type MonitorData struct {
	Pending    []MonitorPending  `json:"pending"`
	Stuck      []MonitorStuck    `json:"stuck"`
	StaleLocks []MonitorLock     `json:"stale_locks"`
	Signals    []delivery.Signal `json:"signals"`
	Actions    []string          `json:"actions"`
}

// MonitorPending is a pending delegation.
type MonitorPending struct {
	ID          string `json:"id"`
	Parent      string `json:"parent"`
	Target      string `json:"target"`
	Lane        string `json:"lane"`
	DelegatedAt string `json:"delegated_at"`
	AgeMinutes  int    `json:"age_minutes"`
}

// MonitorStuck is a pending delegation older than the threshold.
type MonitorStuck struct {
	ID         string `json:"id"`
	Parent     string `json:"parent"`
	Target     string `json:"target"`
	AgeMinutes int    `json:"age_minutes"`
}

// MonitorLock is a stale lane lock.
type MonitorLock struct {
	Lane       string  `json:"lane"`
	WUID       *string `json:"wu_id"`
	Owner      *string `json:"owner"`
	AgeMinutes *int    `json:"age_minutes"`
}

// OrchestrateMonitor is corpus §3.5 orchestrate:monitor: the pending delegations (those
// older than the threshold, or with a delegation time that does not parse, are stuck),
// the stale lane locks and the effective signals since Since, each kept to WU's when it
// is set; then one action per stuck delegation: a hint, what a dry run would do, or
// (Recover) a timeout record appended to the registry and a signal to its target. A bad
// Since is USAGE. Notes.Text is the text report: five sections, one line per item.
func OrchestrateMonitor(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in OrchestrateMonitorInput) (MonitorData, Notes, error) {
	var notes Notes
	now := rt.Now()
	since, err := MonitorSince(in.Since, now)
	if err != nil {
		return MonitorData{}, notes, err
	}
	match := func(ids ...string) bool { return in.WU == "" || slices.Contains(ids, in.WU) }
	data := MonitorData{Pending: []MonitorPending{}, Stuck: []MonitorStuck{}, StaleLocks: []MonitorLock{},
		Signals: []delivery.Signal{}, Actions: []string{}}
	var stuck []delivery.Delegation
	if !in.SignalsOnly {
		reg, err := delivery.ReadDelegations(ws.Root)
		if err != nil {
			return MonitorData{}, notes, err
		}
		for _, w := range reg.Warnings() {
			notes.Warn("%s", w)
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
			data.Pending = append(data.Pending, MonitorPending{ID: d.ID, Parent: d.ParentWUID, Target: d.TargetWUID,
				Lane: d.Lane, DelegatedAt: d.DelegatedAt, AgeMinutes: age})
			if err != nil || now.Sub(at) > in.Threshold {
				data.Stuck = append(data.Stuck, MonitorStuck{ID: d.ID, Parent: d.ParentWUID, Target: d.TargetWUID, AgeMinutes: age})
				stuck = append(stuck, d)
			}
		}
		locks, err := lanelock.List(ws.Root)
		if err != nil {
			return MonitorData{}, notes, delivery.Errorf(tool.CodeIOError, "%w", err)
		}
		for _, l := range locks {
			if !l.Stale(now, rt.StaleThreshold()) || !match(l.WUID) {
				continue
			}
			row := MonitorLock{Lane: l.Lane, WUID: strPtr(l.WUID), Owner: strPtr(l.Owner)}
			if ts, err := delivery.ParseTimestamp(l.Timestamp); err == nil && l.Valid {
				age := int(now.Sub(ts) / time.Minute)
				row.AgeMinutes = &age
			}
			data.StaleLocks = append(data.StaleLocks, row)
		}
	}
	store, err := loadSignals(ws, &notes)
	if err != nil {
		return MonitorData{}, notes, err
	}
	for _, s := range store.Effective() {
		at, err := delivery.ParseTimestamp(s.CreatedAt)
		if err != nil || at.Before(since) || (in.WU != "" && s.WUID != in.WU) {
			continue
		}
		data.Signals = append(data.Signals, s)
	}
	for _, d := range stuck {
		desc := fmt.Sprintf("%s (%s -> %s)", d.ID, d.ParentWUID, d.TargetWUID)
		switch {
		case !in.Recover:
			data.Actions = append(data.Actions, "run with --recover to time out "+desc)
		case in.DryRun:
			data.Actions = append(data.Actions, "would time out "+desc)
		default:
			ts := delivery.Timestamp(now)
			upd := d
			upd.Status, upd.CompletedAt = delivery.DelegationTimeout, &ts
			if err := delivery.AppendDelegations(ws.Root, upd); err != nil {
				return MonitorData{}, notes, err
			}
			sig, err := delivery.SendSignal(ws.Root, rt, delivery.SignalInput{
				Message: fmt.Sprintf("Delegation %s to %s timed out", d.ID, d.TargetWUID), WUID: d.TargetWUID, Lane: d.Lane})
			if err != nil {
				return MonitorData{}, notes, err
			}
			data.Actions = append(data.Actions, fmt.Sprintf("timed out %s, signalled %s", desc, sig.ID))
		}
	}
	notes.Text = monitorText(data)
	return data, notes, nil
}

// MonitorSince resolves orchestrate:monitor's SINCE value against now (ParseSince; an
// empty one is USAGE too). The shells check it before they look for the workspace, as
// the command orders its checks.
func MonitorSince(v string, now time.Time) (time.Time, error) {
	since, ok, err := ParseSince("since", v, now)
	if err == nil && !ok {
		err = delivery.Errorf(tool.CodeUsage, "invalid value %q for --since: expected %s", v, SinceExpected)
	}
	return since, err
}

// monitorText renders the five sections, one line per item, "  none" when empty.
func monitorText(d MonitorData) string {
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
	orDash := func(s *string) string {
		if s == nil {
			return "-"
		}
		return *s
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
		lines = append(lines, fmt.Sprintf("%s  %s  %s  %s", l.Lane, orDash(l.WUID), orDash(l.Owner), age))
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
