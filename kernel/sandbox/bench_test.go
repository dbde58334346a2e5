package sandbox

import (
	"context"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkSandbox compares a sandboxed trivial call (runner protocol included) with a
// bare spawn of bwrap with the same profile running true; the goal is ≤ 1.3×.
func BenchmarkSandbox(b *testing.B) {
	r := realRunner(b)
	dir := b.TempDir()
	req := Request{ToolName: "noop", HandlerEntry: Entry{Lane: LaneNative, Native: "noop"}, Input: []byte(`{}`),
		ScopeEnforced: Scopes{Write: []string{dir}}, ReceiptID: "bench", Workspace: dir}

	p := buildProfile(req, r.Host() == HostFull, hostLayout())
	bare := func(b *testing.B) { bareSpawn(b, r.bwrap, p) }
	call := func(b *testing.B) {
		if out, _ := r.Run(context.Background(), req); !out.Success {
			b.Fatalf("%+v", out.Error)
		}
	}
	b.Run("bare-bwrap-true", func(b *testing.B) {
		for b.Loop() {
			bare(b)
		}
	})
	b.Run("sandboxed-native-call", func(b *testing.B) {
		for b.Loop() {
			call(b)
		}
	})
	// Interleaved, so that load on a shared machine hits both sides alike; reports
	// sandboxed/bare as "ratio".
	b.Run("interleaved", func(b *testing.B) {
		var tb, tc time.Duration
		for b.Loop() {
			s := time.Now()
			bare(b)
			tb += time.Since(s)
			s = time.Now()
			call(b)
			tc += time.Since(s)
		}
		b.ReportMetric(float64(tc)/float64(tb), "ratio")
	})
}

// bareSpawn runs bwrap with profile p (the same descriptors as a real call) around
// /usr/bin/true.
func bareSpawn(b *testing.B, bwrap string, p profile) {
	argv := append(append([]string(nil), p.argv...), "--", "/usr/bin/true")
	rw, ww, err := os.Pipe() // fd 3, as in a real call
	if err != nil {
		b.Fatal(err)
	}
	files := []*os.File{ww}
	for _, f := range p.files {
		pr, pw, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.WriteString(pw, f.content)
		pw.Close()
		files = append(files, pr)
	}
	cmd := exec.Command(bwrap, argv...)
	cmd.Env = []string{}
	cmd.ExtraFiles = files
	err = cmd.Run()
	for _, f := range files {
		f.Close()
	}
	rw.Close()
	if err != nil {
		b.Fatal(err)
	}
}
