package ops

import (
	"context"
	"fmt"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WULaneLocksData is wu:unlock-lane --list's JSON data.
type WULaneLocksData struct {
	Locks []LaneLockInfo `json:"locks"`
}

// LaneLockInfo is one lane lock as of the runtime's now; age_minutes is null when the
// lock has no valid timestamp.
type LaneLockInfo struct {
	Lane       string  `json:"lane"`
	WUID       string  `json:"wu_id"`
	Owner      string  `json:"owner"`
	Timestamp  *string `json:"timestamp"`
	AgeMinutes *int    `json:"age_minutes"`
	Stale      bool    `json:"stale"`
	Path       string  `json:"path"`
}

// WULaneLocks is corpus §3.1 wu:unlock-lane --list (read-only): every lane lock with its
// age and staleness, in the order lanelock.List gives them.
func WULaneLocks(_ context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (WULaneLocksData, Notes, error) {
	var notes Notes
	entries, err := lanelock.List(ws.Root)
	if err != nil {
		return WULaneLocksData{}, notes, delivery.Errorf(tool.CodeIOError, "list locks: %w", err)
	}
	data := WULaneLocksData{Locks: []LaneLockInfo{}}
	for _, e := range entries {
		data.Locks = append(data.Locks, laneLockInfo(rt, &e.Lock, e.Path))
	}
	return data, notes, nil
}

// WUUnlockLaneInput is wu:unlock-lane's input when it clears a lock.
type WUUnlockLaneInput struct {
	// Lane is the lane whose lock to clear.
	Lane string
	// Reason is the audit reason (WUUnlockLaneData.Audit carries it).
	Reason string
	// Force clears a lock that is not stale.
	Force bool
}

// WUUnlockLaneData is the JSON data of a cleared lock; Forced is true when the lock was
// not stale and Force cleared it.
type WUUnlockLaneData struct {
	Lane     string       `json:"lane"`
	LockPath string       `json:"lock_path"`
	Previous LaneLockInfo `json:"previous"`
	Forced   bool         `json:"forced"`
	// Audit is the diagnostic line the command prints on stderr ("unlocked <lane> (was
	// <wuId> by <owner>): <reason>", without the command prefix); not part of the JSON.
	Audit string `json:"-"`
}

// WUUnlockLane is corpus §3.1 wu:unlock-lane --lane: the lane's lock removed, whoever holds
// it; a lock that is not stale needs Force (LOCK_ACTIVE with details {holder}, nothing
// written); no lock is NOT_FOUND. Notes.Headline is "Unlocked <lane>".
func WUUnlockLane(_ context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUUnlockLaneInput) (WUUnlockLaneData, Notes, error) {
	var notes Notes
	lk, err := lanelock.Read(ws.Root, in.Lane)
	if err != nil {
		return WUUnlockLaneData{}, notes, delivery.Errorf(tool.CodeIOError, "read lock of %s: %w", in.Lane, err)
	}
	if lk == nil {
		return WUUnlockLaneData{}, notes, delivery.Errorf(tool.CodeNotFound, "lane %s has no lock (%s)", in.Lane, lanelock.Rel(in.Lane))
	}
	prev := laneLockInfo(rt, lk, lanelock.Rel(in.Lane))
	forced := !lk.Stale(rt.Now(), rt.StaleThreshold())
	if forced && !in.Force {
		return WUUnlockLaneData{}, notes, (&delivery.Error{Code: tool.CodeLockActive,
			Message: fmt.Sprintf("lock of lane %s is active (%s by %s); use --force to clear it", in.Lane, lk.WUID, lk.Owner)}).
			WithDetails(map[string]any{"holder": prev})
	}
	if _, err := lanelock.Release(ws.Root, in.Lane, "", true); err != nil {
		return WUUnlockLaneData{}, notes, delivery.Errorf(tool.CodeIOError, "release lock of %s: %w", in.Lane, err)
	}
	notes.Headline = "Unlocked " + in.Lane
	return WUUnlockLaneData{Lane: in.Lane, LockPath: prev.Path, Previous: prev, Forced: forced,
		Audit: fmt.Sprintf("unlocked %s (was %s by %s): %s", in.Lane, lk.WUID, lk.Owner, in.Reason)}, notes, nil
}

// laneLockInfo describes a lock as of the runtime's now.
func laneLockInfo(rt *delivery.Runtime, lk *lanelock.Lock, rel string) LaneLockInfo {
	info := LaneLockInfo{Lane: lk.Lane, WUID: lk.WUID, Owner: lk.Owner, Timestamp: strPtr(lk.Timestamp),
		Stale: lk.Stale(rt.Now(), rt.StaleThreshold()), Path: rel}
	if ts, err := delivery.ParseTimestamp(lk.Timestamp); err == nil && lk.Valid {
		age := int(rt.Now().Sub(ts).Minutes())
		info.AgeMinutes = &age
	}
	return info
}
