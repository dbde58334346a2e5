package bridgecheck_test

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
)

var printed = regexp.MustCompile(`(?m)^.*/hazard\.go:(\d+):\d+: \[([a-z-]+)\] `)

// Check counts what it checked, and Print lists the findings in position order.
func TestCheckCountsAndPrintsInOrder(t *testing.T) {
	r, err := bridgecheck.Check("..", "./adapter/internal/hazard", "./nativetools", "./tool")
	require.NoError(t, err)
	assert.Equal(t, 1, r.Legacy, "hazard registers commands")
	assert.Equal(t, 1, r.Native, "the native tool registry package")
	assert.Equal(t, 5, r.Diagnostics)

	var out bytes.Buffer
	require.NoError(t, r.Print(&out, []string{"./adapter/internal/hazard"}))
	var rules []string
	var lines []int
	for _, m := range printed.FindAllStringSubmatch(out.String(), -1) {
		rules = append(rules, m[2])
		n, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		lines = append(lines, n)
	}
	assert.Equal(t, []string{"go-in-action", "recover", "global-stream", "chdir", "go-in-action"}, rules, out.String())
	assert.True(t, sort.IntsAreSorted(lines), out.String())
	assert.NotContains(t, out.String(), "nothing was checked")
}

func TestCheckSaysWhenNothingWasChecked(t *testing.T) {
	r, err := bridgecheck.Check("..", "./tool", "./kernel/statedir")
	require.NoError(t, err)
	assert.Zero(t, r.Legacy)
	assert.Zero(t, r.Native)
	var out bytes.Buffer
	require.NoError(t, r.Print(&out, []string{"./tool", "./kernel/statedir"}))
	assert.True(t, r.Nothing())
	assert.Contains(t, out.String(), "bridgecheck: ./tool ./kernel/statedir holds no urfave/cli program")
	assert.Contains(t, out.String(), "nothing was checked; pass your program's packages (./... in its module) or -legacy PATTERNS")
}
