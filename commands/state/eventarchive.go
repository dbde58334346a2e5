package state

import (
	"bytes"
	"path/filepath"
	"sort"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// eventArchive is the plan of state:cleanup's event step: the log lines that stay and,
// per archive file, the lines that move there, in log order.
type eventArchive struct {
	// Keep are the raw lines that stay in wu-events.jsonl (unparsable lines always stay).
	Keep [][]byte
	// Files maps a root-relative archive file to the lines it receives.
	Files map[string][][]byte
	// Archived counts the moved events.
	Archived int
}

// planEventArchive selects the events to archive at now (spec §3.2 state:cleanup): every
// event of each WU whose event state is done and whose latest complete event is older
// than after. Each goes to .lumenflow/archive/wu-events-<YYYY-MM of that event>.jsonl.
// Events of WUs that are not done are never moved.
// TODO(delivery): move to delivery.PlanEventArchive.
func planEventArchive(log *delivery.EventLog, now time.Time, after time.Duration) eventArchive {
	states := log.Replay()
	lastComplete := map[string]time.Time{}
	for _, ev := range log.Events() {
		if ev.Type != delivery.EventComplete {
			continue
		}
		if t, err := delivery.ParseTimestamp(ev.Timestamp); err == nil && t.After(lastComplete[ev.WUID]) {
			lastComplete[ev.WUID] = t
		}
	}
	plan := eventArchive{Files: map[string][][]byte{}}
	for _, ln := range log.Lines {
		if ln.Err == nil && states[ln.Event.WUID] == delivery.StatusDone {
			if t, ok := lastComplete[ln.Event.WUID]; ok && now.Sub(t) > after {
				at, err := delivery.ParseTimestamp(ln.Event.Timestamp)
				if err == nil {
					f := delivery.ArchiveDir + "/wu-events-" + at.UTC().Format("2006-01") + ".jsonl"
					plan.Files[f] = append(plan.Files[f], ln.Raw)
					plan.Archived++
					continue
				}
			}
		}
		plan.Keep = append(plan.Keep, ln.Raw)
	}
	return plan
}

// fileNames returns the archive files in ascending order.
func (p eventArchive) fileNames() []string {
	out := make([]string, 0, len(p.Files))
	for f := range p.Files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// apply appends the moved events to their archive files first, then rewrites the log, so
// an interruption can duplicate an event into an archive but never lose one.
func (p eventArchive) apply(root string) error {
	for _, f := range p.fileNames() {
		var b bytes.Buffer
		for _, l := range p.Files[f] {
			b.Write(l)
			b.WriteByte('\n')
		}
		if err := delivery.AppendLines(filepath.Join(root, filepath.FromSlash(f)), b.Bytes()); err != nil {
			return delivery.Errorf(tool.CodeIOError, "archive events to %s: %w", f, err)
		}
	}
	return delivery.RewriteEvents(root, p.Keep)
}
