package kernel

import (
	"context"
	"sync"
	"time"
)

// Batch runs reqs as one run and returns their results in request order.
func (k *Kernel) Batch(ctx context.Context, reqs []Request) []Result {
	results := make([]Result, len(reqs))
	k.BatchFunc(ctx, reqs, func(i int, r Result) { results[i] = r })
	return results
}

// BatchFunc runs reqs as one run and calls publish exactly once per request, in request
// order, as soon as every earlier request has been published. publish is never called
// concurrently. Requests without a RunID share one.
//
// Scheduling: a maximal run of contiguous parallel-safe calls forms a wave that runs
// concurrently (at most Config.MaxParallel at a time); a call that is not parallel-safe
// is a wave of its own. A wave starts when the previous one has finished.
func (k *Kernel) BatchFunc(ctx context.Context, reqs []Request, publish func(i int, r Result)) {
	runID := "run-" + k.newID()[len("call-"):]
	queued := time.Now()
	var (
		mu   sync.Mutex
		done = make([]bool, len(reqs))
		got  = make([]Result, len(reqs))
		next int
	)
	complete := func(i int, r Result) {
		mu.Lock()
		defer mu.Unlock()
		done[i], got[i] = true, r
		for next < len(reqs) && done[next] {
			publish(next, got[next])
			got[next] = Result{}
			next++
		}
	}
	sem := make(chan struct{}, k.cfg.MaxParallel)
	for start := 0; start < len(reqs); {
		end := start + 1
		if k.parallelSafe(reqs[start]) {
			for end < len(reqs) && k.parallelSafe(reqs[end]) {
				end++
			}
		}
		var wg sync.WaitGroup
		for i := start; i < end; i++ {
			req := reqs[i]
			if req.RunID == "" {
				req.RunID = runID
			}
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				// run refuses to dispatch once ctx is cancelled, so unstarted calls end
				// CANCELLED with their receipt.
				complete(i, k.run(ctx, req, queued))
			}()
		}
		wg.Wait()
		start = end
	}
}

// parallelSafe reports whether a request may share a wave. Unknown tools are refused
// without side effects, so they may.
func (k *Kernel) parallelSafe(req Request) bool {
	name, ok := k.names.Resolve(req.Tool)
	if !ok {
		return true
	}
	return k.entries[name].spec.ParallelSafe
}
