package ops

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// MemInboxInput is mem:inbox's input. WU defaults to the current session's when "".
type MemInboxInput struct {
	// Since is a SINCE value (30m, 7d, YYYY-MM-DD or RFC 3339); "" shows every age.
	Since, WU, Lane string
	// All includes read signals.
	All bool
	// Mark appends a read receipt for each unread signal shown.
	Mark bool
}

// Check rejects a Since that is not a SINCE value (USAGE, as the command's argv phase).
func (in MemInboxInput) Check() error {
	_, _, err := ParseSince("since", in.Since, time.Time{}) // only the form is checked
	return err
}

// MemInboxData is mem:inbox's JSON data.
type MemInboxData struct {
	Signals []delivery.Signal `json:"signals"`
	Marked  []string          `json:"marked"`
}

// MemInbox is corpus §3.4 mem:inbox: the effective signals (unread unless All) filtered by
// since, WU and lane, oldest first; with Mark, a read receipt for each unread one shown.
// Notes.Text is the whole text output ("<k> signal(s)" then two lines per signal, or
// "No signals found.").
func MemInbox(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemInboxInput) (MemInboxData, Notes, error) {
	var notes Notes
	since, bySince, err := ParseSince("since", in.Since, rt.Now())
	if err != nil {
		return MemInboxData{}, notes, err
	}
	wu, _ := SessionDefaults(ws, &notes, in.WU, "")
	store, err := loadSignals(ws, &notes)
	if err != nil {
		return MemInboxData{}, notes, err
	}
	shown, marked := []delivery.Signal{}, []string{}
	for _, s := range store.Effective() {
		if s.Read && !in.All {
			continue
		}
		if bySince {
			if t, err := delivery.ParseTimestamp(s.CreatedAt); err != nil || t.Before(since) {
				continue
			}
		}
		if (wu != "" && s.WUID != wu) || (in.Lane != "" && s.Lane != in.Lane) {
			continue
		}
		shown = append(shown, s)
		if !s.Read {
			marked = append(marked, s.ID)
		}
	}
	if !in.Mark {
		marked = []string{}
	} else if err := delivery.MarkSignalsRead(ws.Root, marked, delivery.Timestamp(rt.Now())); err != nil {
		return MemInboxData{}, notes, err
	}
	notes.Text = inboxText(shown)
	return MemInboxData{Signals: shown, Marked: marked}, notes, nil
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
