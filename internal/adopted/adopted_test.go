package adopted

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/apptree"
)

func manifestJSON(t *testing.T, format int) []byte {
	t.Helper()
	b, err := json.Marshal(Manifest{Format: format, Version: "v1.2.3", Bridge: "bridge",
		App: apptree.Describe(&cli.App{Name: "prog", Commands: []*cli.Command{{Name: "x"}}}, nil)})
	require.NoError(t, err)
	return b
}

// TestDecode: a manifest is read alone or after lines a program's main printed first;
// one of a newer format is refused with the host to install; what is no manifest is
// refused, quoting the start of what the program printed.
func TestDecode(t *testing.T) {
	m, err := Decode(append(manifestJSON(t, Format), '\n'))
	require.NoError(t, err)
	assert.Equal(t, "bridge", m.Bridge)
	assert.Equal(t, "prog", m.App.Name)

	m, err = Decode(append([]byte("prog 1.0 (c) someone\nloading config…\n"), manifestJSON(t, Format)...))
	require.NoError(t, err, "a banner before the manifest")
	assert.Equal(t, "prog", m.App.Name)

	_, err = Decode(manifestJSON(t, Format+1))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "newer cmdbridge")
	assert.Contains(t, err.Error(), "go install github.com/cmdbridge/cmdbridge/cmd/cmdbridge@v1.2.3")

	_, err = Decode([]byte("Usage: prog [options]\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"Usage: prog [options]\n"`)

	_, err = Decode([]byte(`{"format":1}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "adopted with cmdbridge.Command")
}
