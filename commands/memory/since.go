package memory

import (
	"errors"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
)

// sinceExpected is the usage message's "expected …" for the SINCE type.
const sinceExpected = "duration like 30m, 24h or 7d, YYYY-MM-DD date or RFC 3339 timestamp"

// sinceValue is corpus §2.1's SINCE: a DURATION (now − d), a DATE (00:00Z) or an RFC 3339
// timestamp. Set only checks the form; the instant depends on the clock (instant).
// TODO(convention): move to convention.Since, other domains (flow, orchestrate) use SINCE.
type sinceValue struct{ value string }

func (s *sinceValue) Set(v string) error {
	if _, ok := convention.ParseDuration(v); ok {
		s.value = v
		return nil
	}
	if _, err := time.Parse(time.DateOnly, v); err == nil && len(v) == len(time.DateOnly) {
		s.value = v
		return nil
	}
	if _, err := delivery.ParseTimestamp(v); err == nil {
		s.value = v
		return nil
	}
	return errors.New(sinceExpected)
}

func (s *sinceValue) String() string { return s.value }

// Expected names the accepted forms.
func (s *sinceValue) Expected() string { return sinceExpected }

// sinceFlag declares an optional SINCE flag.
func sinceFlag(name, usage string) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Usage: usage + " (30m, 7d, YYYY-MM-DD or RFC 3339)", Value: &sinceValue{}}
}

// sinceInstant resolves a SINCE value against now; ok is false when v is empty.
func sinceInstant(v string, now time.Time) (time.Time, bool) {
	if v == "" {
		return time.Time{}, false
	}
	if d, ok := convention.ParseDuration(v); ok {
		return now.Add(-d), true
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t.UTC(), true
	}
	t, _ := delivery.ParseTimestamp(v)
	return t.UTC(), true
}
