package delivery_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

// TestCloneSharesNothing: a clone of a WU or an initiative equals what parsing gives
// (document, comments, anchors and aliases, typed view, type errors) and changing it,
// through the typed view or the document, leaves the original as parsed.
func TestCloneSharesNothing(t *testing.T) {
	wuSrc := []byte("# head\nid: WU-1\ntitle: T # why\nlane: &l 'Core: API'\nstatus: ready\nblocked_by: [WU-2]\nnotes: *l\nphase: not-a-number\n")
	w, err := delivery.ParseWU("docs/tasks/wu/WU-1.yaml", wuSrc)
	require.NoError(t, err)
	c := w.Clone()
	assert.Equal(t, w, c)
	c.Set("title", storage.StrNode("changed"))
	c.Refresh()
	c.BlockedBy[0] = "WU-9"
	again, err := delivery.ParseWU("docs/tasks/wu/WU-1.yaml", wuSrc)
	require.NoError(t, err)
	assert.Equal(t, again, w, "the original is as parsed")
	assert.Equal(t, "changed", c.Title)

	inSrc := []byte("id: INIT-1\nslug: first\ntitle: First\nwus: [WU-1, WU-2]\n")
	in, err := delivery.ParseInitiative("docs/tasks/initiatives/INIT-1.yaml", inSrc)
	require.NoError(t, err)
	ci := in.Clone()
	assert.Equal(t, in, ci)
	ci.WUs[0] = "WU-7"
	ci.Set("title", storage.StrNode("other"))
	inAgain, err := delivery.ParseInitiative("docs/tasks/initiatives/INIT-1.yaml", inSrc)
	require.NoError(t, err)
	assert.Equal(t, inAgain, in)
}
