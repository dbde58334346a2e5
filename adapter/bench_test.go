package adapter

import (
	"context"
	"os"
	"testing"

	"github.com/cmdbridge/cmdbridge/adapter/internal/hazard"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// BenchmarkAdapterTrivial and BenchmarkSubprocessTrivial run the same trivial command on
// each lane; their ratio is the adapter lane's reason to exist. BenchmarkAdapterBare runs
// a main that does nothing but print, which is the lane's own cost.
func BenchmarkAdapterTrivial(b *testing.B) {
	echo := hazard.Lookup("hello")
	argv := []string{"world"}
	b.ReportAllocs()
	for b.Loop() {
		if r := Run(context.Background(), echo, argv, Config{}); r.ExitCode != 0 || string(r.Stdout) != "hello world\n" {
			b.Fatalf("exit %d, stdout %q", r.ExitCode, r.Stdout)
		}
	}
}

func BenchmarkSubprocessTrivial(b *testing.B) {
	echo := hazard.Lookup("hello")
	argv := []string{"world"}
	b.ReportAllocs()
	for b.Loop() {
		if r := RunSubprocess(context.Background(), echo, argv, Config{Binary: binary}); r.ExitCode != 0 || string(r.Stdout) != "hello world\n" {
			b.Fatalf("exit %d, stdout %q", r.ExitCode, r.Stdout)
		}
	}
}

func BenchmarkAdapterBare(b *testing.B) {
	bare := legacy.Command{Name: "bare", New: hazard.Lookup("hello").New, Main: func(context.Context) {
		_, _ = os.Stdout.WriteString("hello world\n")
	}}
	b.ReportAllocs()
	for b.Loop() {
		if r := Run(context.Background(), bare, nil, Config{}); r.ExitCode != 0 || string(r.Stdout) != "hello world\n" {
			b.Fatalf("exit %d, stdout %q", r.ExitCode, r.Stdout)
		}
	}
}
