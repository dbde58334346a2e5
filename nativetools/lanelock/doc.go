// Package lanelock holds the native-only lane-lock tools of corpus §4: lane-lock:acquire
// and lane-lock:release. Each file is one tool: Input struct, registration, handler.
//
// Invariants: both tools call delivery/lanelock, the one lock implementation the legacy
// wu:* commands use (§1.11: O_EXCL create, owner identity, staleness, the .takeover
// marker); they implement no locking of their own. A lock that is not acquired or not
// released is a result, not an error.
package lanelock
