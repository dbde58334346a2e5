package kernel_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// withCat adds test:cat, a native tool that returns its stdin as text, and counts its
// runs in ran.
func withCat(t testing.TB, ran *atomic.Int32) kopt {
	return func(cfg *assemble.Config) {
		r := testRegistry(t, &probe{})
		require.NoError(t, r.Add(native.New(tool.Spec{Name: "test:cat", Description: "echo stdin",
			Annotations: tool.Annotations{ReadOnlyHint: true}},
			func(ctx context.Context, env *tool.Env, in struct{}) tool.Output {
				ran.Add(1)
				b, err := io.ReadAll(env.Stdin)
				if err != nil {
					return tool.Fail(tool.CodeExecutionFailed, "%v", err)
				}
				return tool.OK(string(b))
			})))
		cfg.Native = r
	}
}

func TestStdinReachesTheNativeLane(t *testing.T) {
	var ran atomic.Int32
	k, _ := newKernel(t, nil, withCat(t, &ran))
	for _, tc := range []struct {
		name  string
		stdin []byte
		want  string
	}{
		{"absent", nil, ""},
		{"text", []byte("line 1\nline 2\n"), "line 1\nline 2\n"},
		{"bytes", []byte{0, 1, 2, 0xff}, string([]byte{0, 1, 2, 0xff})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := req("test:cat", `{}`)
			r.Stdin = tc.stdin
			res := k.Call(context.Background(), r)
			require.True(t, res.Output.Success, "%+v", res.Output.Error)
			assert.Equal(t, tc.want, res.Output.Data)
		})
	}
}

func TestStdinReachesTheAdapter(t *testing.T) {
	fa := &fakeAdapter{}
	k, _ := newKernel(t, nil, func(cfg *assemble.Config) { cfg.Lanes = fa.lanes() })
	for _, lane := range []string{kernel.LaneAdapter, kernel.LaneSubprocess} {
		r := req("wu:edit", `{"id":"WU-1"}`)
		r.Lane, r.Stdin = lane, []byte("from stdin")
		res := k.Call(context.Background(), r)
		require.True(t, res.Output.Success, "%+v", res.Output.Error)
	}
	require.Len(t, fa.calls, 2)
	for _, c := range fa.calls {
		assert.Equal(t, "from stdin", string(c.Stdin), c.Lane)
	}
}

func TestStdinOverTheLimitIsRefusedBeforeAnythingRuns(t *testing.T) {
	var ran atomic.Int32
	k, _ := newKernel(t, nil, withCat(t, &ran), func(cfg *assemble.Config) { cfg.MaxStdin = 8 })
	assert.Equal(t, 8, k.MaxStdin())

	r := req("test:cat", `{}`)
	r.Stdin = []byte("12345678")
	res := k.Call(context.Background(), r)
	require.True(t, res.Output.Success, "exactly the limit is accepted: %+v", res.Output.Error)
	assert.Equal(t, "12345678", res.Output.Data)

	r.Stdin = []byte("123456789")
	res = k.Call(context.Background(), r)
	require.False(t, res.Output.Success)
	assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code)
	assert.Contains(t, res.Output.Error.Message, "limit of 8 bytes")
	assert.Equal(t, evidence.StatusRefused, res.Receipt.Status)
	assert.NotEmpty(t, res.Receipt.StdinHash, "the refused stdin is on the record")
	assert.Equal(t, int32(1), ran.Load(), "the refused call never ran")
}

func TestDefaultStdinLimit(t *testing.T) {
	var ran atomic.Int32
	k, _ := newKernel(t, nil, withCat(t, &ran))
	assert.Equal(t, kernel.DefaultMaxStdin, k.MaxStdin())
	r := req("test:cat", `{}`)
	r.Stdin = bytes.Repeat([]byte("x"), kernel.DefaultMaxStdin+1)
	res := k.Call(context.Background(), r)
	require.False(t, res.Output.Success)
	assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code)
	assert.Zero(t, ran.Load())
}

// TestStdinIsInTheEvidence: the same input with different stdin gives the same
// input_hash and different stdin_hash records; no stdin records none.
func TestStdinIsInTheEvidence(t *testing.T) {
	var ran atomic.Int32
	k, ws := newKernel(t, nil, withCat(t, &ran))
	for _, stdin := range []string{"", "a", "b", "a"} {
		r := req("test:cat", `{}`)
		if stdin != "" {
			r.Stdin = []byte(stdin)
		}
		require.True(t, k.Call(context.Background(), r).Output.Success)
	}
	require.NoError(t, k.Close())
	recs := receipts(t, ws)
	require.Len(t, recs, 4)
	for _, r := range recs[1:] {
		assert.Equal(t, recs[0].InputHash, r.InputHash)
	}
	assert.Empty(t, recs[0].StdinHash)
	assert.NotEmpty(t, recs[1].StdinHash)
	assert.NotEqual(t, recs[1].StdinHash, recs[2].StdinHash, "different stdin, different evidence")
	assert.Equal(t, recs[1].StdinHash, recs[3].StdinHash)
	// SHA-256 of "a".
	assert.True(t, strings.HasPrefix(recs[1].StdinHash, "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"))
}

type editIn struct {
	ID    string `json:"id"`
	Force bool   `json:"force,omitempty"`
}

// TestStdinReachesBothSidesOfAShadowRun: a shadow-routed call serves the adapter and runs
// the native implementation beside it; both get the call's stdin.
func TestStdinReachesBothSidesOfAShadowRun(t *testing.T) {
	fa := &fakeAdapter{}
	nativeSeen := make(chan string, 1)
	k, _ := newKernel(t, nil, func(cfg *assemble.Config) {
		cfg.Lanes = fa.lanes()
		cfg.Routes = map[string]string{"wu:edit": kernel.RouteShadow}
		r := native.NewRegistry()
		require.NoError(t, r.Add(native.New(tool.Spec{Name: "wu:edit", Description: "edit"},
			func(ctx context.Context, env *tool.Env, in editIn) tool.Output {
				b, _ := io.ReadAll(env.Stdin)
				nativeSeen <- string(b)
				return tool.OK(nil)
			})))
		cfg.Native = r
	})
	r := req("wu:edit", `{"id":"WU-1"}`)
	r.Stdin = []byte("shadowed stdin")
	res := k.Call(context.Background(), r)
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	require.NotNil(t, res.Receipt.Shadow, "the call was shadowed")
	require.Len(t, fa.calls, 1)
	assert.Equal(t, "shadowed stdin", string(fa.calls[0].Stdin), "served side")
	select {
	case got := <-nativeSeen:
		assert.Equal(t, "shadowed stdin", got, "native side")
	default:
		t.Fatal("the native side did not run")
	}
}

// BenchmarkCallStdin: a native call with no stdin, and with 64 KiB and 1 MiB of it: the
// bound check, the hash into the receipt, and the tool reading it all (it answers only
// the count, so the output costs the same at every size).
func BenchmarkCallStdin(b *testing.B) {
	for _, size := range []int{0, 64 << 10, kernel.DefaultMaxStdin} {
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) {
			k, _ := newKernel(b, nil, func(cfg *assemble.Config) {
				r := native.NewRegistry()
				require.NoError(b, r.Add(native.New(tool.Spec{Name: "test:wc", Description: "count stdin",
					Annotations: tool.Annotations{ReadOnlyHint: true}},
					func(ctx context.Context, env *tool.Env, in struct{}) tool.Output {
						n, err := io.Copy(io.Discard, env.Stdin)
						if err != nil {
							return tool.Fail(tool.CodeExecutionFailed, "%v", err)
						}
						return tool.OK(n)
					})))
				cfg.Native = r
			})
			r := req("test:wc", `{}`)
			r.Stdin = bytes.Repeat([]byte("x"), size)
			b.SetBytes(int64(size))
			for b.Loop() {
				if res := k.Call(context.Background(), r); !res.Output.Success {
					b.Fatalf("%+v", res.Output.Error)
				}
			}
		})
	}
}
