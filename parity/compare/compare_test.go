package compare_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/parity/compare"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestCompareOutputs(t *testing.T) {
	norm := compare.NewNormalizer("/tmp/a", "/tmp/b")
	for _, tc := range []struct {
		name  string
		a, b  tool.Output
		paths []string
	}{
		{"equal raw and struct data", tool.OK(json.RawMessage(`{"b":1,"a":[1,2]}`)), tool.OK(map[string]any{"a": []int{1, 2}, "b": 1}), nil},
		{"work dirs normalised", tool.OK(map[string]string{"path": "/tmp/a/x"}), tool.OK(map[string]string{"path": "/tmp/b/x"}), nil},
		{"timestamps, ids and durations normalised",
			tool.OK(map[string]any{"at": "2026-03-01T10:00:00.000Z", "id": "sig-1a2b3c4d", "duration_ms": 3}),
			tool.OK(map[string]any{"at": "2026-03-02T11:00:00Z", "id": "sig-99999999", "duration_ms": 7}), nil},
		{"success and code", tool.OK(nil), tool.Fail("NOT_FOUND", "x"), []string{"/success", "/error/code"}},
		{"message not compared", tool.Fail("NOT_FOUND", "one"), tool.Fail("NOT_FOUND", "two"), nil},
		{"nested field", tool.OK(json.RawMessage(`{"wu":{"status":"ready"}}`)), tool.OK(json.RawMessage(`{"wu":{"status":"done"}}`)), []string{"/data/wu/status"}},
		{"missing key and array element", tool.OK(json.RawMessage(`{"a/b":1,"l":[1,2]}`)), tool.OK(json.RawMessage(`{"l":[1]}`)), []string{"/data/a~1b", "/data/l/1"}},
		{"metadata not compared", tool.OK(nil).WithMeta("lane", "adapter"), tool.OK(nil).WithMeta("lane", "native"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var paths []string
			for _, d := range compare.CompareOutputs(tc.a, tc.b, norm) {
				paths = append(paths, d.Path)
			}
			assert.Equal(t, tc.paths, paths)
		})
	}
}

func TestCompareStreams(t *testing.T) {
	norm := compare.NewNormalizer("/w1", "/w2")
	a := compare.Streams{Stdout: []byte("at /w1/x\nline2\n"), Stderr: []byte("warn\n"), ExitCode: 0}
	assert.Empty(t, compare.CompareStreams(a, compare.Streams{Stdout: []byte("at /w2/x\nline2\n"), Stderr: []byte("warn\n")}, "subprocess", "adapter", norm))
	ds := compare.CompareStreams(a, compare.Streams{Stdout: []byte("at /w2/x\nline3\n"), Stderr: []byte("warn"), ExitCode: 1}, "subprocess", "adapter", norm)
	if assert.Len(t, ds, 3) {
		assert.Equal(t, "exit_code", ds[0].Path)
		assert.Equal(t, "stdout", ds[1].Path)
		assert.Contains(t, ds[1].Unified, "-line2\n+line3\n")
		assert.Equal(t, "stderr", ds[2].Path)
		assert.Equal(t, `"warn\n"`, ds[2].Want)
	}
}

// A lane's copy sits in a directory of its own under the workspace's base name: its own
// path is $WORK, and a path beside it (one an input reached by "..") is $WORK/.. on
// every lane.
func TestNormalizerRewritesTheDirectoryAboveACopy(t *testing.T) {
	n := compare.NewNormalizer("/s/subprocess/acme", "/s/native/acme")
	n.Above = []string{"/s/subprocess", "/s/native"}
	for in, want := range map[string]string{
		"/s/subprocess/acme/docs/a.md":        "$WORK/docs/a.md",
		"/s/native/acme":                      "$WORK",
		"path /s/native/outside/x is outside": "path $WORK/../outside/x is outside",
		"/s/other/x":                          "/s/other/x",
	} {
		assert.Equal(t, want, n.String(in), in)
	}
}
