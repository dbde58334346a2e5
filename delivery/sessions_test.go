package delivery

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionRoundTrip(t *testing.T) {
	root := t.TempDir()
	s, err := ReadSession(root)
	require.NoError(t, err)
	assert.Nil(t, s, "no file, no session")

	want := &Session{SessionID: "u", WUID: "WU-1", Lane: "Core", Started: "2026-03-01T10:00:00.000Z", ContextTier: 2}
	require.NoError(t, WriteSession(root, want))
	data, err := os.ReadFile(SessionPath(root))
	require.NoError(t, err)
	assert.Contains(t, string(data), "{\n  \"session_id\": \"u\",\n  \"wu_id\": \"WU-1\",")
	assert.Contains(t, string(data), "\"capabilities\": [],")
	got, err := ReadSession(root)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	existed, err := RemoveSession(root)
	require.NoError(t, err)
	assert.True(t, existed)
	existed, err = RemoveSession(root)
	require.NoError(t, err)
	assert.False(t, existed)
}

func TestReadSessionMalformedIsValidation(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Dir(SessionPath(root)), 0o755))
	require.NoError(t, os.WriteFile(SessionPath(root), []byte("[1]"), 0o644))
	_, err := ReadSession(root)
	require.Error(t, err)
	assert.Equal(t, "VALIDATION", CodeOf(err))
}
