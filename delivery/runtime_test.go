package delivery

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/gittest"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestNewRuntimeEnvErrors(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		msg  string
	}{
		{"bad now", map[string]string{"DELIVERY_NOW": "yesterday"}, "invalid environment variable DELIVERY_NOW: expected an RFC 3339 timestamp"},
		{"zero threshold", map[string]string{"STALE_LOCK_THRESHOLD_HOURS": "0"}, "invalid environment variable STALE_LOCK_THRESHOLD_HOURS: expected a positive number of hours"},
		{"text threshold", map[string]string{"STALE_LOCK_THRESHOLD_HOURS": "two"}, "invalid environment variable STALE_LOCK_THRESHOLD_HOURS"},
		{"relative workspace", map[string]string{"DELIVERY_WORKSPACE": "ws"}, "invalid environment variable DELIVERY_WORKSPACE: must be an absolute path"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewRuntime(t.TempDir(), tool.EnvFromMap(tc.env))
			require.Error(t, err)
			assert.Equal(t, tool.CodeUsage, CodeOf(err))
			assert.Equal(t, 2, AsError(err).Exit())
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestRuntimeClockAndThreshold(t *testing.T) {
	r, err := NewRuntime(t.TempDir(), tool.EnvFromMap(map[string]string{
		"DELIVERY_NOW": "2026-03-02T18:37:08.384+01:00", "STALE_LOCK_THRESHOLD_HOURS": "0.5",
	}))
	require.NoError(t, err)
	assert.True(t, r.Frozen())
	assert.Equal(t, "2026-03-02T17:37:08.384Z", Timestamp(r.Now()))
	assert.Equal(t, r.Now(), r.Now())
	assert.Equal(t, "2026-03-02", Date(r.Now()))
	assert.Equal(t, 30*time.Minute, r.StaleThreshold())

	live, err := NewRuntime(t.TempDir(), noEnv)
	require.NoError(t, err)
	assert.False(t, live.Frozen())
	assert.Equal(t, DefaultStaleLockThreshold, live.StaleThreshold())
	assert.WithinDuration(t, time.Now(), live.Now(), time.Minute)
}

func TestSeededIDsFollowSpecFormula(t *testing.T) {
	env := tool.EnvFromMap(map[string]string{"DELIVERY_NOW": "2026-03-02T18:37:08.384Z", "DELIVERY_SEED": "s"})
	r, err := NewRuntime(t.TempDir(), env)
	require.NoError(t, err)
	expect := func(kind string, k, n int) string {
		sum := sha256.Sum256([]byte("s|" + kind + "|" + string(rune('0'+k)) + "|2026-03-02T18:37:08.384Z"))
		return hex.EncodeToString(sum[:])[:n]
	}
	assert.Equal(t, "sig-"+expect("sig", 0, 8), NewID(r, KindSignal, nil))
	assert.Equal(t, "dlg-"+expect("dlg", 0, 4), NewID(r, KindDelegation, nil), "draw counters are per kind")
	assert.Equal(t, "sig-"+expect("sig", 1, 8), NewID(r, KindSignal, nil))

	// A collision redraws with the next counter.
	taken := "sig-" + expect("sig", 2, 8)
	got := NewID(r, KindSignal, func(id string) bool { return id == taken })
	assert.Equal(t, "sig-"+expect("sig", 3, 8), got)

	// Same env, fresh runtime: the same sequence.
	r2, err := NewRuntime(t.TempDir(), env)
	require.NoError(t, err)
	assert.Equal(t, "sig-"+expect("sig", 0, 8), NewID(r2, KindSignal, nil))
}

func TestUUIDFormat(t *testing.T) {
	assert.Equal(t, "01234567-89ab-4def-bedc-ba9876543210", FormatUUID("0123456789abcdeffedcba9876543210"))
	assert.Equal(t, "ffffffff-ffff-4fff-bfff-ffffffffffff", FormatUUID("ffffffffffffffffffffffffffffffff"))
	assert.Equal(t, "00000000-0000-4000-8000-000000000000", FormatUUID("00000000000000000000000000000000"))
	r, err := NewRuntime(t.TempDir(), noEnv)
	require.NoError(t, err)
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	for i := 0; i < 20; i++ {
		assert.Regexp(t, re, NewID(r, KindUUID, nil))
	}
	assert.Regexp(t, `^sig-[0-9a-f]{8}$`, NewID(r, KindSignal, nil))
}

func TestOwnerFallbacks(t *testing.T) {
	notRepo := t.TempDir()
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"explicit owner", map[string]string{"DELIVERY_OWNER": "ada@example.com", "USER": "u"}, "ada@example.com"},
		{"user", map[string]string{"USER": "u"}, "u"},
		{"unknown", map[string]string{}, "unknown"},
	}
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewRuntime(notRepo, tool.EnvFromMap(tc.env))
			require.NoError(t, err)
			assert.Equal(t, tc.want, r.Owner(context.Background()))
		})
	}
	repo := t.TempDir()
	gittest.Init(t, repo)
	gittest.Run(t, repo, "config", "user.email", "git@example.com")
	r, err := NewRuntime(repo, tool.EnvFromMap(map[string]string{"USER": "u"}))
	require.NoError(t, err)
	assert.Equal(t, "git@example.com", r.Owner(context.Background()))
}
