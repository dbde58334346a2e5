package kernel_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKernelLinksNoLaneNorDecorator: package kernel holds the contracts and none of what
// runs through them (the mvdan/sh rule: the runner never imports what it runs): no lane's
// package, no registry, and not the shadow decorator nor the comparison it makes.
func TestKernelLinksNoLaneNorDecorator(t *testing.T) {
	const self = "github.com/cmdbridge/cmdbridge/kernel"
	out, err := exec.Command("go", "list", "-deps", self).CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, self+"/lane")
	for _, banned := range []string{
		"github.com/cmdbridge/cmdbridge/adapter",
		"github.com/cmdbridge/cmdbridge/tool/legacy",
		"github.com/cmdbridge/cmdbridge/tool/native",
		self + "/sandbox",
		self + "/shadow",
		self + "/assemble",
		"github.com/cmdbridge/cmdbridge/parity/compare",
	} {
		assert.NotContains(t, deps, banned)
	}
}
