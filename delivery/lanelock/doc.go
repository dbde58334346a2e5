// Package lanelock is the one lane-lock implementation of shared/spec/commands.md §1.11,
// used by the wu:* commands, wu:unlock-lane, state:doctor, doctor and the native
// lane-lock:acquire/release tools alike.
//
// A lock is the file .lumenflow/locks/<kebab(lane)>.lock holding compact JSON
// {"lane","wuId","owner","timestamp"} and a newline. Identity is the owner string
// (DELIVERY_OWNER…), never a process id.
//
// Invariants:
//
//   - [Acquire] creates the file with O_CREAT|O_EXCL, so two acquirers never both win.
//     A lock already held by the same owner for the same WU is reported already_held and
//     left untouched. A stale lock (older than the threshold, unparsable, or without a
//     timestamp) is taken over only under an exclusive flock of the <lock>.takeover
//     marker (lockedfile), after re-reading the lock; the marker is removed while still
//     locked (a failure to remove it is a warning). The flock, not the file's existence,
//     is the guard: it ends with its holder, so a takeover that crashed never blocks the
//     lane, and a leftover marker file is reused and removed by the next acquirer.
//   - [Release] removes the file only when the owner matches or when forced; a non-release
//     is a result, not an error.
//   - LumenFlow legacy locks ({wuId,timestamp,agentSession,pid,lane}) are read with owner
//     agentSession, or pid:<pid> when it is null.
//   - Nothing here reads the clock or the environment: callers pass now and the threshold.
package lanelock
