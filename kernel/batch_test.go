package kernel_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/tool"
)

func sleepReq(toolName string, id, us int) kernel.Request {
	return req(toolName, fmt.Sprintf(`{"id":%d,"sleep_us":%d}`, id, us))
}

func TestReverseCompletionPublishedInRequestOrder(t *testing.T) {
	k, _ := newKernel(t, &probe{})
	var reqs []kernel.Request
	for i := 0; i < 6; i++ {
		reqs = append(reqs, sleepReq("test:sleep-r", i, (6-i)*8000)) // the first finishes last
	}
	var order []int
	k.BatchFunc(context.Background(), reqs, func(i int, r kernel.Result) {
		require.True(t, r.Output.Success, "%+v", r.Output.Error)
		assert.Equal(t, i, r.Output.Data)
		order = append(order, i)
	})
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, order)
}

func TestWavesOfParallelSafeCalls(t *testing.T) {
	p := &probe{}
	k, _ := newKernel(t, p)
	// [R,R,W,R,R]: waves {0,1} {2} {3,4}.
	reqs := []kernel.Request{
		sleepReq("test:sleep-r", 0, 20000), sleepReq("test:sleep-r", 1, 20000),
		sleepReq("test:sleep-w", 2, 20000),
		sleepReq("test:sleep-r", 3, 20000), sleepReq("test:sleep-r", 4, 20000),
	}
	results := k.Batch(context.Background(), reqs)
	require.Len(t, results, 5)
	for i, r := range results {
		require.True(t, r.Output.Success, "%d: %+v", i, r.Output.Error)
		assert.Equal(t, i, r.Output.Data)
		assert.Equal(t, results[0].Receipt.RunID, r.Receipt.RunID, "one run")
	}
	assert.Equal(t, 2, p.max, "max concurrency")
	pos := map[int]int{}
	for i, id := range p.order {
		pos[id] = i
	}
	assert.Equal(t, 2, pos[2], "W starts after both Rs of the first wave and before the last wave")
	assert.ElementsMatch(t, []int{0, 1}, p.order[:2])
	assert.ElementsMatch(t, []int{3, 4}, p.order[3:])
}

func TestWritesToOnePathSerialize(t *testing.T) {
	p := &probe{}
	k, _ := newKernel(t, p)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Different spellings of one path: the lock is on the resolved path (a
			// parallel-safe writer, so the workspace write lock is not what orders it).
			path := []string{"a.txt", "./a.txt", "sub/../a.txt"}[i%3]
			res := k.Call(context.Background(), req("test:write-p", `{"path":"`+path+`"}`))
			assert.True(t, res.Output.Success, "%+v", res.Output.Error)
		}()
	}
	wg.Wait()
	assert.Equal(t, 1, p.max, "writes to one path never overlap")

	p2 := &probe{}
	k2, _ := newKernel(t, p2)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k2.Call(context.Background(), req("test:write-p", fmt.Sprintf(`{"path":"f%d"}`, i)))
		}()
	}
	wg.Wait()
	assert.Greater(t, p2.max, 1, "parallel-safe writes to different paths may overlap")
}

func TestCancelledRunDispatchesNothingNew(t *testing.T) {
	p := &probe{}
	k, ws := newKernel(t, p)
	ctx, cancel := context.WithCancel(context.Background())
	reqs := []kernel.Request{sleepReq("test:sleep-w", 0, 0), sleepReq("test:sleep-w", 1, 5_000_000)}
	for i := 2; i < 8; i++ {
		reqs = append(reqs, sleepReq("test:sleep-w", i, 0))
	}
	go func() {
		for len(snapshot(p)) < 2 { // call 1 has started
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	results := k.Batch(ctx, reqs)
	require.Len(t, results, 8)
	assert.True(t, results[0].Output.Success)
	for i, r := range results[1:] {
		require.NotNil(t, r.Output.Error, "call %d", i+1)
		assert.Equal(t, tool.CodeCancelled, r.Output.Error.Code)
	}
	assert.Equal(t, []int{0, 1}, snapshot(p), "nothing dispatched after the cancel")
	assert.Len(t, receipts(t, ws), 8, "every call has its receipt")
}

func snapshot(p *probe) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int(nil), p.order...)
}

// TestRandomInterleavings races completion against per-call timeouts and a run cancel.
func TestRandomInterleavings(t *testing.T) {
	for round := 0; round < 30; round++ {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(round), 7))
			k, ws := newKernel(t, &probe{})
			n := 5 + rng.IntN(20)
			reqs := make([]kernel.Request, n)
			for i := range reqs {
				name := "test:sleep-r"
				if rng.IntN(3) == 0 {
					name = "test:sleep-w"
				}
				reqs[i] = sleepReq(name, i, rng.IntN(3000))
				reqs[i].Timeout = time.Duration(1+rng.IntN(3000)) * time.Microsecond
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(time.Duration(rng.IntN(8000))*time.Microsecond, cancel)
			seen := make([]int, n)
			next := 0
			k.BatchFunc(ctx, reqs, func(i int, r kernel.Result) {
				assert.Equal(t, next, i, "request order")
				next++
				seen[i]++
				if r.Output.Success {
					assert.Equal(t, i, r.Output.Data)
				} else {
					require.NotNil(t, r.Output.Error)
					assert.Contains(t, []string{tool.CodeTimeout, tool.CodeCancelled, tool.CodeInternal}, r.Output.Error.Code)
				}
			})
			cancel()
			for i, c := range seen {
				assert.Equal(t, 1, c, "call %d results", i)
			}
			recs := receipts(t, ws)
			require.Len(t, recs, n, "one receipt per call")
			ids := map[string]bool{}
			for _, r := range recs {
				assert.False(t, ids[r.ID])
				ids[r.ID] = true
			}
		})
	}
}
