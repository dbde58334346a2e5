package kernel_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
)

// TestFileConfigNATS: the nats key is read for cmdbridge serve and changes nothing the
// kernel applies; a typo inside it is an error like anywhere else.
func TestFileConfigNATS(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.yaml")
	require.NoError(t, os.WriteFile(p, []byte("nats:\n  url: nats://127.0.0.1:4222\n  creds: /etc/ws-1.creds\n"), 0o644))
	fc, err := kernel.LoadFileConfig(p)
	require.NoError(t, err)
	require.NotNil(t, fc.NATS)
	assert.Equal(t, "nats://127.0.0.1:4222", fc.NATS.URL)
	assert.Equal(t, "/etc/ws-1.creds", fc.NATS.Creds)
	var withNATS, without kernel.Config
	require.NoError(t, fc.Apply(&withNATS))
	require.NoError(t, kernel.FileConfig{}.Apply(&without))
	assert.Equal(t, without, withNATS)

	require.NoError(t, os.WriteFile(p, []byte("nats:\n  uri: nats://127.0.0.1:4222\n"), 0o644))
	_, err = kernel.LoadFileConfig(p)
	assert.ErrorContains(t, err, "uri")
}
