package kernel_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
)

// Two kernels on one workspace are two hosts (a serve and an mcp): the calls that may
// write and are not parallel-safe never overlap across them; read-only calls do.
func TestWritingCallsAreSerialisedAcrossKernels(t *testing.T) {
	for _, tc := range []struct {
		tool    string
		wantMax func(max int) bool
		what    string
	}{
		{"test:sleep-w", func(m int) bool { return m == 1 }, "writers run one at a time"},
		{"test:sleep-r", func(m int) bool { return m > 1 }, "read-only calls still overlap"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			p := &probe{}
			k1, ws := newKernel(t, p)
			k2, err := assemble.Kernel(assemble.Config{
				Config: kernel.Config{
					Workspace: ws,
					Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered, Dir: t.TempDir()},
				},
				Native: testRegistry(t, p),
			})
			require.NoError(t, err)
			t.Cleanup(func() { _ = k2.Close() })
			var wg sync.WaitGroup
			for i := range 12 {
				k := k1
				if i%2 == 1 {
					k = k2
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					res := k.Call(context.Background(), req(tc.tool, fmt.Sprintf(`{"id":%d,"sleep_us":20000}`, i)))
					assert.True(t, res.Output.Success, "%+v", res.Output.Error)
				}()
			}
			wg.Wait()
			assert.True(t, tc.wantMax(p.max), "%s: %d at once", tc.what, p.max)
		})
	}
}
