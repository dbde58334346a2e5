package adapter

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Run runs c's main in-process with os.Args = [c.Argv0(), argv...] and returns the stdout,
// stderr and exit code a real process `delivery <c.Name> argv...` gives. Runs are
// serialised (one at a time, first come first served); a call waiting its turn leaves
// the queue when ctx ends. While a timed-out main is still running, Run serves the call
// on the subprocess lane instead (when opts.Binary is set).
func Run(ctx context.Context, c legacy.Command, argv []string, opts Config) Result {
	return theLane.run(ctx, c, argv, opts)
}

// theLane is the process's one adapter lane: process globals exist once, so there can
// be only one.
var theLane = newLane()

// lane serialises in-process runs and owns what they reuse: the memfd streams, the
// costume and the run record.
type lane struct {
	// sem is the lock: a send takes it, a receive releases it. Blocked senders are woken
	// in arrival order, so the queue is FIFO, and a select on ctx.Done() lets a waiting
	// call leave.
	sem chan struct{}

	mu sync.Mutex
	// zombie is set while a main whose call already returned (deadline or cancel) is
	// still running; it holds sem and the costume until it ends.
	zombie bool
	// zombieStarted is closed when a zombie appears, waking queued calls so that they
	// move to the subprocess lane; a fresh channel replaces it when the zombie ends.
	zombieStarted chan struct{}
	// waiting counts calls queued for sem (tests use it to order arrivals).
	waiting atomic.Int32

	// Everything below is used only by the holder of sem.
	in, out, err  *stream
	scratch       [4096]byte
	cwd           hostDir
	costume       costume
	r             run
	seq           uint64
	exitHook      func(int)
	flagUsageHook func()
}

func newLane() *lane {
	l := &lane{sem: make(chan struct{}, 1), zombieStarted: make(chan struct{})}
	l.cwd.fd = -1
	l.exitHook = l.exit
	l.flagUsageHook = l.flagUsage
	l.r.done = make(chan struct{}, 1)
	return l
}

// run is the record of one in-process run. Fields under mu are shared between the
// caller's goroutine, the main's goroutine and any goroutine calling the exit hook.
type run struct {
	name  string
	argv0 string // os.Args[0] of the run (legacy.Command.Argv0)
	main  func(context.Context)
	ctx   context.Context
	label context.Context
	id    string
	base  uint64 // goroutinesCreated() before the main started

	done chan struct{}

	mu        sync.Mutex
	exited    bool  // an exit was recorded (first one wins)
	code      int   // the recorded exit code
	outCut    int64 // stream lengths at the exit point
	errCut    int64
	usage     bool // flag.CommandLine printed its usage: a parse panic is an exit
	usageOut  int64
	usageErr  int64
	panicked  bool
	panicMsg  string
	finished  bool
	endedAt   time.Time
	abandoned bool // the caller returned before the main ended: the main is a zombie
	leaked    int
}

// exitSignal is what the exit hook panics with on the main's goroutine; only the runner
// recovers it.
type exitSignal struct{}

// exit is cli.OsExiter during a run. A real process dies here: the first call fixes the
// exit code and the output, later output is cut. On the main's goroutine it unwinds the
// main with a panic; on any other goroutine it ends only that goroutine. It never
// returns, as os.Exit never does.
func (l *lane) exit(code int) {
	r := &l.r
	r.mu.Lock()
	if !r.exited {
		r.exited, r.code = true, code
		r.outCut, r.errCut = l.out.length(), l.err.length()
	}
	r.mu.Unlock()
	if onMainGoroutine() {
		panic(exitSignal{})
	}
	runtime.Goexit()
}

// flagUsage is flag.CommandLine's Usage during a run: it prints what a real process's
// CommandLine prints and marks the point where ExitOnError would have exited.
func (l *lane) flagUsage() {
	flag.Usage()
	r := &l.r
	r.mu.Lock()
	r.usage, r.usageOut, r.usageErr = true, l.out.length(), l.err.length()
	r.mu.Unlock()
}

// mainFrame is the function every main runs under; the exit hook finds it on the stack
// to know it is on the main's goroutine (goroutines the main starts do not have it).
var mainFrame = runtime.FuncForPC(reflectPC((*lane).runMain)).Name()

func onMainGoroutine() bool {
	var pcs [128]uintptr
	for skip := 2; ; skip += len(pcs) {
		n := runtime.Callers(skip, pcs[:])
		frames := runtime.CallersFrames(pcs[:n])
		for {
			f, more := frames.Next()
			if f.Function == mainFrame {
				return true
			}
			if !more {
				break
			}
		}
		if n < len(pcs) {
			return false
		}
	}
}

func (l *lane) run(ctx context.Context, c legacy.Command, argv []string, opts Config) Result {
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	if !l.acquire(ctx, opts) {
		if l.isZombie() && opts.Binary != "" && ctx.Err() == nil {
			return RunSubprocess(ctx, c, argv, opts)
		}
		return queuedResult(ctx, c, argv, start)
	}
	res := Result{Command: c.Name, Output: c.Output, Args: argv, Lane: LaneAdapter, Status: Completed}
	if err := l.prepare(c, argv, &opts, ctx); err != nil {
		<-l.sem
		res.ExitCode, res.Stderr = 1, []byte(fmt.Sprintf("[%s] adapter: %v\n", c.Name, err))
		res.Stdout = []byte{}
		res.Duration = time.Since(start)
		return res
	}
	r := &l.r
	go l.runMain(r)

	select {
	case <-r.done:
	case <-ctx.Done():
		r.mu.Lock()
		if !r.finished {
			// The main ignores its context: give the caller what it has so far and let
			// the main finish on its own as a zombie that keeps the lock and costume.
			res.Status = statusFor(ctx)
			res.Stdout, res.StdoutTruncated = l.out.read(-1, opts.maxOutput(), l.scratch[:])
			res.Stderr, res.StderrTruncated = l.err.read(-1, opts.maxOutput(), l.scratch[:])
			r.abandoned = true
			l.enterZombie()
			r.mu.Unlock()
			return l.interrupted(res, start)
		}
		r.mu.Unlock()
		<-r.done
	}
	// The main ended and its goroutine restored the costume; sem is still ours.
	max := opts.maxOutput()
	outCut, errCut := int64(-1), int64(-1)
	if r.exited {
		outCut, errCut = r.outCut, r.errCut
	}
	res.Stdout, res.StdoutTruncated = l.out.read(outCut, max, l.scratch[:])
	res.Stderr, res.StderrTruncated = l.err.read(errCut, max, l.scratch[:])
	switch {
	case r.exited:
		res.ExitCode = r.code
	case r.panicked:
		res.ExitCode = 2
		res.Stderr = append(res.Stderr, r.panicMsg...)
	}
	res.LeakedGoroutines = r.leaked
	if r.leaked > 0 {
		// A leaked goroutine may hold the streams (a logger made from os.Stderr): give
		// the next run fresh ones so nothing it writes later lands there.
		l.retireStreams()
	}
	if dl, ok := ctx.Deadline(); ok && r.endedAt.After(dl) {
		res.Status = TimedOut
	}
	<-l.sem
	if res.Status != Completed {
		return l.interrupted(res, start)
	}
	res.Duration = time.Since(start)
	return res
}

// interrupted finishes the result of a run whose deadline passed or that was cancelled.
func (l *lane) interrupted(res Result, start time.Time) Result {
	res.ExitCode = ExitTimeout
	if res.Status == Cancelled {
		res.ExitCode = ExitCancelled
	}
	res.Stderr = append(res.Stderr, statusNote(res.Command, res.Status, false)...)
	res.Duration = time.Since(start)
	return res
}

func statusFor(ctx context.Context) Status {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return TimedOut
	}
	return Cancelled
}

// queuedResult is the result of a call that left the queue before its turn.
func queuedResult(ctx context.Context, c legacy.Command, argv []string, start time.Time) Result {
	s := statusFor(ctx)
	code := ExitTimeout
	if s == Cancelled {
		code = ExitCancelled
	}
	return Result{
		Command: c.Name, Args: argv, Lane: LaneAdapter, Status: s, ExitCode: code,
		Stdout: []byte{}, Stderr: []byte(statusNote(c.Name, s, true)), Duration: time.Since(start),
	}
}

// acquire takes the lock, in FIFO order. It returns false when ctx ended first or when a
// zombie appeared and the call can go to the subprocess lane instead.
func (l *lane) acquire(ctx context.Context, opts Config) bool {
	select {
	case l.sem <- struct{}{}:
		return true // the lock was free, so no zombie holds it
	default:
	}
	l.waiting.Add(1)
	defer l.waiting.Add(-1)
	l.mu.Lock()
	zombie, started := l.zombie, l.zombieStarted
	l.mu.Unlock()
	if opts.Binary == "" {
		started = nil // nowhere else to go: wait for the zombie to end
	} else if zombie {
		return false
	}
	select {
	case l.sem <- struct{}{}:
		return true
	case <-started:
		return false
	case <-ctx.Done():
		return false
	}
}

func (l *lane) isZombie() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.zombie
}

func (l *lane) enterZombie() {
	l.mu.Lock()
	l.zombie = true
	close(l.zombieStarted)
	l.mu.Unlock()
}

func (l *lane) leaveZombie() {
	l.mu.Lock()
	l.zombie = false
	l.zombieStarted = make(chan struct{})
	l.mu.Unlock()
}

// prepare readies the streams and the run record and puts the costume on.
func (l *lane) prepare(c legacy.Command, argv []string, opts *Config, ctx context.Context) error {
	if l.in == nil {
		var err error
		if l.in, err = newStream("stdin"); err != nil {
			return err
		}
		if l.out, err = newStream("stdout"); err != nil {
			return err
		}
		if l.err, err = newStream("stderr"); err != nil {
			return err
		}
	}
	if err := l.in.resetInput(opts.Stdin); err != nil {
		return err
	}
	if err := l.out.resetOutput(); err != nil {
		return err
	}
	if err := l.err.resetOutput(); err != nil {
		return err
	}
	l.seq++
	r := &l.r
	done := r.done
	*r = run{name: c.Name, argv0: c.Argv0(), main: c.Main, ctx: ctx, done: done}
	r.id = strconv.FormatUint(l.seq, 10)
	r.label = pprof.WithLabels(context.Background(), pprof.Labels(leakLabel, r.id))
	if err := l.costume.put(l, r, argv, opts); err != nil {
		return err
	}
	r.base = goroutinesCreated()
	return nil
}

func (l *lane) retireStreams() {
	for _, s := range []*stream{l.in, l.out, l.err} {
		if s != nil {
			s.close()
		}
	}
	l.in, l.out, l.err = nil, nil, nil
}

// runMain is the main's goroutine. Its deferred block is the one place the costume comes
// off, whatever the main did: returned, exited, panicked, or outlived its call.
//
//go:noinline
func (l *lane) runMain(r *run) {
	defer l.mainEnded(r)
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if _, ok := v.(exitSignal); ok {
			return
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.exited {
			return // the first exit already decided
		}
		if err, ok := v.(error); ok && r.usage {
			// flag.CommandLine's PanicOnError after printing usage: ExitOnError would
			// have exited 0 for -help and 2 otherwise, right after the usage.
			r.exited, r.code, r.outCut, r.errCut = true, 2, r.usageOut, r.usageErr
			if errors.Is(err, flag.ErrHelp) {
				r.code = 0
			}
			return
		}
		r.panicked, r.panicMsg = true, "panic: "+panicValue(v)+"\n"
	}()
	pprof.SetGoroutineLabels(r.label)
	r.main(r.ctx)
}

// mainEnded takes the costume off and hands the run back: to the waiting caller, or,
// for a zombie, finishes it alone and releases the lock.
func (l *lane) mainEnded(r *run) {
	leaked := l.countLeaks(r)
	l.costume.restore()
	r.mu.Lock()
	r.finished, r.endedAt, r.leaked = true, time.Now(), leaked
	abandoned := r.abandoned
	r.mu.Unlock()
	if !abandoned {
		r.done <- struct{}{}
		return
	}
	l.retireStreams()
	l.leaveZombie()
	<-l.sem
}
