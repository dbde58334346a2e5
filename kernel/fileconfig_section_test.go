package kernel_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
)

// natsSection stands for a host's section of the config file (cmdbridge serve's nats).
type natsSection struct {
	URL   string `yaml:"url"`
	Creds string `yaml:"creds"`
}

// TestFileConfigSection: a key the host names as a section is decoded for the host and
// changes nothing the kernel applies; a typo inside it is an error like anywhere else,
// and without the section the key is an unknown key.
func TestFileConfigSection(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.yaml")
	require.NoError(t, os.WriteFile(p, []byte("nats:\n  url: nats://127.0.0.1:4222\n  creds: /etc/ws-1.creds\n"), 0o644))
	var nats *natsSection
	fc, err := kernel.LoadFileConfig(p, kernel.FileSection{Key: "nats", Into: &nats})
	require.NoError(t, err)
	require.NotNil(t, nats)
	assert.Equal(t, "nats://127.0.0.1:4222", nats.URL)
	assert.Equal(t, "/etc/ws-1.creds", nats.Creds)
	var withNATS, without kernel.Config
	require.NoError(t, fc.Apply(&withNATS))
	require.NoError(t, kernel.FileConfig{}.Apply(&without))
	assert.Equal(t, without, withNATS)

	_, err = kernel.LoadFileConfig(p)
	assert.ErrorContains(t, err, "line 1: field nats not found in type kernel.FileConfig", "the kernel does not know a host's key")

	require.NoError(t, os.WriteFile(p, []byte("nats:\n  uri: nats://127.0.0.1:4222\n"), 0o644))
	_, err = kernel.LoadFileConfig(p, kernel.FileSection{Key: "nats", Into: &nats})
	assert.ErrorContains(t, err, "line 2: field uri not found in type kernel_test.natsSection")
}

// TestFileConfigSectionErrorsInFileOrder: the kernel's and the sections' reports come
// together, in the file's order, and an absent section leaves its value alone.
func TestFileConfigSectionErrorsInFileOrder(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.yaml")
	require.NoError(t, os.WriteFile(p, []byte("governance:\n  alowed: []\nnats:\n  uri: x\nbar: 2\n"), 0o644))
	var nats *natsSection
	_, err := kernel.LoadFileConfig(p, kernel.FileSection{Key: "nats", Into: &nats})
	require.Error(t, err)
	assert.Equal(t, "kernel config "+p+": yaml: unmarshal errors:\n"+
		"  line 2: field alowed not found in type kernel.Governance\n"+
		"  line 4: field uri not found in type kernel_test.natsSection\n"+
		"  line 5: field bar not found in type kernel.FileConfig", err.Error())

	require.NoError(t, os.WriteFile(p, []byte("max_parallel: 3\n"), 0o644))
	kept := &natsSection{URL: "kept"}
	fc, err := kernel.LoadFileConfig(p, kernel.FileSection{Key: "nats", Into: &kept})
	require.NoError(t, err)
	assert.Equal(t, 3, fc.MaxParallel)
	assert.Equal(t, "kept", kept.URL)
}
