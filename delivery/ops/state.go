package ops

import (
	"sort"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// Helpers shared by the state domain's operations (signal:cleanup and state:cleanup's
// signal step).

// SignalPolicy is the TTL policy of signal:cleanup (corpus §3.2), also the signal step of
// state:cleanup with the config defaults.
type SignalPolicy struct {
	TTL, UnreadTTL time.Duration
	MaxEntries     int
}

// DefaultSignalPolicy is the policy of workspace.yaml's memory.signalCleanup keys.
func DefaultSignalPolicy(cfg *delivery.Config) SignalPolicy {
	return SignalPolicy{TTL: cfg.SignalTTL, UnreadTTL: cfg.SignalUnreadTTL, MaxEntries: cfg.SignalMaxEntries}
}

// pruneSignals decides which signals of the store survive the policy at now. Signals
// linked to a WU in protected are never removed; otherwise a read signal older than TTL
// and an unread one older than UnreadTTL go, then the oldest unprotected ones (creation
// time, file order on ties) while more than MaxEntries remain. keep is in file order,
// removed lists ids in file order.
// TODO(delivery): move to delivery.PruneSignals.
func pruneSignals(store *delivery.SignalStore, protected map[string]bool, now time.Time, p SignalPolicy) (keep []delivery.Signal, removed []string) {
	type cand struct {
		idx int
		at  time.Time
	}
	gone := make([]bool, len(store.Signals))
	var survivors []cand
	for i, s := range store.Signals {
		at, _ := delivery.ParseTimestamp(s.CreatedAt) // Validate accepted it already
		if s.WUID != "" && protected[s.WUID] {
			continue
		}
		ttl := p.UnreadTTL
		if store.IsRead(s) {
			ttl = p.TTL
		}
		if now.Sub(at) > ttl {
			gone[i] = true
			continue
		}
		survivors = append(survivors, cand{i, at})
	}
	total := 0
	for _, g := range gone {
		if !g {
			total++
		}
	}
	sort.SliceStable(survivors, func(a, b int) bool { return survivors[a].at.Before(survivors[b].at) })
	for _, c := range survivors {
		if total <= p.MaxEntries {
			break
		}
		gone[c.idx] = true
		total--
	}
	keep = []delivery.Signal{}
	removed = []string{}
	for i, s := range store.Signals {
		if gone[i] {
			removed = append(removed, s.ID)
		} else {
			keep = append(keep, s)
		}
	}
	return keep, removed
}

// activeWUs is the set of WUs whose YAML status is in_progress or blocked: their
// signals are protected from cleanup. A WU file that does not parse protects its signals
// too, since its status cannot be known and a cleanup never removes what it cannot judge.
func activeWUs(files []delivery.WUFile) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		if f.Err != nil {
			out[f.ID] = true
			continue
		}
		switch f.WU.NormStatus() {
		case delivery.StatusInProgress, delivery.StatusBlocked:
			out[f.WU.ID] = true
		}
	}
	return out
}

// cleanupSignals loads the signal store (its skipped lines become warnings), applies the
// policy with the WUs of ws protected as activeWUs says, and unless dryRun rewrites
// signals.jsonl and drops the receipts of removed signals. Nothing is written when
// nothing is removed.
func cleanupSignals(ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, p SignalPolicy, dryRun bool) (removed []string, kept int, err error) {
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return nil, 0, err
	}
	store, err := delivery.LoadSignals(ws.Root)
	if err != nil {
		return nil, 0, err
	}
	for _, w := range store.Warnings() {
		notes.Warn("%s", w)
	}
	keep, removed := pruneSignals(store, activeWUs(files), rt.Now(), p)
	if !dryRun && len(removed) > 0 {
		if err := delivery.RewriteSignalStore(ws.Root, keep); err != nil {
			return nil, 0, err
		}
	}
	return removed, len(keep), nil
}
