package sandbox

import (
	"context"
	"io"
	"os"
	"os/exec"
	"testing"
)

// BenchmarkSandbox compares a sandboxed trivial call (runner protocol included) with a
// bare spawn of bwrap with the same profile running true; the goal is ≤ 1.3×.
func BenchmarkSandbox(b *testing.B) {
	r := realRunner(b)
	dir := b.TempDir()
	req := Request{ToolName: "noop", HandlerEntry: Entry{Lane: LaneNative, Native: "noop"}, Input: []byte(`{}`),
		ScopeEnforced: Scopes{Write: []string{dir}}, ReceiptID: "bench", Workspace: dir}

	b.Run("bare-bwrap-true", func(b *testing.B) {
		p := buildProfile(req, r.Host() == HostFull, hostLayout())
		argv := append(append([]string(nil), p.argv...), "--", "/usr/bin/true")
		for b.Loop() {
			files := make([]*os.File, 0, len(p.files)+1)
			rw, ww, err := os.Pipe() // fd 3, as in a real call
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, ww)
			for _, f := range p.files {
				pr, pw, err := os.Pipe()
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.WriteString(pw, f.content)
				pw.Close()
				files = append(files, pr)
			}
			cmd := exec.Command(r.bwrap, argv...)
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
	})
	b.Run("sandboxed-native-call", func(b *testing.B) {
		for b.Loop() {
			out, _ := r.Run(context.Background(), req)
			if !out.Success {
				b.Fatalf("%+v", out.Error)
			}
		}
	})
}
