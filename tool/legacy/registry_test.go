package legacy_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func cmd(name string) legacy.Command {
	return legacy.Command{Name: name, Domain: "d", New: func() *cli.App { return &cli.App{} }, Main: func(context.Context) {}}
}

func TestRegistryAddLookupAll(t *testing.T) {
	r := legacy.NewRegistry()
	for _, n := range []string{"wu:create", "gates", "mem:inbox"} {
		require.NoError(t, r.Add(cmd(n)))
	}
	c, ok := r.Lookup("gates")
	require.True(t, ok)
	assert.Equal(t, "gates", c.Name)
	_, ok = r.Lookup("wu_create")
	assert.False(t, ok, "Lookup takes canonical names only")

	var names []string
	for _, c := range r.All() {
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"gates", "mem:inbox", "wu:create"}, names)
}

func TestRegistryRejectsBadEntries(t *testing.T) {
	r := legacy.NewRegistry()
	require.NoError(t, r.Add(cmd("gates")))
	assert.ErrorContains(t, r.Add(cmd("gates")), `command "gates" is registered twice`)

	noMain := cmd("x")
	noMain.Main = nil
	assert.ErrorContains(t, r.Add(noMain), "name, constructor and main are all required")
	noNew := cmd("y")
	noNew.New = nil
	assert.ErrorContains(t, r.Add(noNew), "name, constructor and main are all required")
	assert.ErrorContains(t, r.Add(cmd("")), "name, constructor and main are all required")
	assert.Len(t, r.All(), 1)
}

func TestRegistryDerivesAnUndeclaredDomainFromTheName(t *testing.T) {
	r := legacy.NewRegistry()
	c := cmd("wu:infer-lane")
	c.Domain = ""
	require.NoError(t, r.Add(c))
	require.NoError(t, r.Add(cmd("mem:inbox")))
	got, _ := r.Lookup("wu:infer-lane")
	assert.Equal(t, "wu", got.Domain)
	got, _ = r.Lookup("mem:inbox")
	assert.Equal(t, "d", got.Domain, "a declared domain is kept")
}
