package evidence_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
)

// tamperFixture is a closed log of 10 receipts with checkpoints at 4, 8 and 10, a
// witness file outside the evidence directory, and the verifier key as the operator
// keeps it.
type tamperFixture struct {
	dir, witness, key string
}

func newTamperFixture(t *testing.T) tamperFixture {
	t.Helper()
	f := tamperFixture{dir: filepath.Join(t.TempDir(), "evidence"), witness: filepath.Join(t.TempDir(), "witness.jsonl")}
	l, err := evidence.Open(evidence.Options{Dir: f.dir, CheckpointEvery: 4, CheckpointIdle: -1, Witness: f.witness})
	require.NoError(t, err)
	for i := range 10 {
		require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprintf("c-%d", i), Tool: "wu:status", Status: evidence.StatusOK}))
	}
	require.NoError(t, l.Close())
	key, err := os.ReadFile(filepath.Join(f.dir, evidence.VerifierKeyFile))
	require.NoError(t, err)
	f.key = string(key)
	return f
}

func (f tamperFixture) file(name string) string { return filepath.Join(f.dir, name) }

// forge rewrites the log from scratch with an attacker's writer: the receipts (and the
// checkpoints) are replaced by n new records, one of them changed, signed with whatever
// signing key the directory holds then (the log's own, or a fresh pair after the keys
// were removed).
func (f tamperFixture) forge(t *testing.T, n int) {
	t.Helper()
	require.NoError(t, os.Remove(f.file(evidence.ReceiptsFile)))
	require.NoError(t, os.Remove(f.file(evidence.CheckpointsFile)))
	l, err := evidence.Open(evidence.Options{Dir: f.dir, CheckpointEvery: 4, CheckpointIdle: -1})
	require.NoError(t, err)
	for i := range n {
		tool := "wu:status"
		if i == 2 {
			tool = "wu:delete"
		}
		require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprintf("c-%d", i), Tool: tool, Status: evidence.StatusOK}))
	}
	require.NoError(t, l.Close())
}

func (f tamperFixture) editLines(t *testing.T, edit func(ls [][]byte) [][]byte) {
	t.Helper()
	rewrite(t, f.dir, edit(lines(t, f.dir)))
}

func (f tamperFixture) keepCheckpoints(t *testing.T, keep func(line string) bool) {
	t.Helper()
	data, err := os.ReadFile(f.file(evidence.CheckpointsFile))
	require.NoError(t, err)
	var out strings.Builder
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if line != "" && keep(line) {
			out.WriteString(line)
		}
	}
	require.NoError(t, os.WriteFile(f.file(evidence.CheckpointsFile), []byte(out.String()), 0o644))
}

func TestVerifyDetectsEveryTampering(t *testing.T) {
	const (
		local   = iota // only what the directory holds
		witness        // plus the operator's witness file
		key            // plus the operator's trusted verifier key
		both
	)
	cases := []struct {
		name   string
		with   int
		tamper func(t *testing.T, f tamperFixture)
		kind   string
	}{
		{"record edited", local, func(t *testing.T, f tamperFixture) {
			f.editLines(t, func(ls [][]byte) [][]byte {
				ls[2] = bytes.Replace(ls[2], []byte(`"tool":"wu:status"`), []byte(`"tool":"wu:delete"`), 1)
				return ls
			})
		}, evidence.Edited},
		{"record deleted", local, func(t *testing.T, f tamperFixture) {
			f.editLines(t, func(ls [][]byte) [][]byte { return append(ls[:4:4], ls[5:]...) })
		}, evidence.Deleted},
		{"last record deleted", local, func(t *testing.T, f tamperFixture) {
			f.editLines(t, func(ls [][]byte) [][]byte { return ls[:9] })
		}, evidence.Truncated},
		{"records swapped", local, func(t *testing.T, f tamperFixture) {
			f.editLines(t, func(ls [][]byte) [][]byte { ls[5], ls[6] = ls[6], ls[5]; return ls })
		}, evidence.Reordered},
		{"record forged in the middle (copied with a new id)", local, func(t *testing.T, f tamperFixture) {
			f.editLines(t, func(ls [][]byte) [][]byte {
				forged := bytes.Replace(ls[3], []byte(`"id":"c-3"`), []byte(`"id":"c-x"`), 1)
				return append(ls[:4:4], append([][]byte{forged}, ls[4:]...)...)
			})
		}, evidence.Edited},
		{"forged tail, correctly chained", local, func(t *testing.T, f tamperFixture) {
			l, err := evidence.Open(evidence.Options{Dir: f.dir, CheckpointEvery: 100, CheckpointIdle: -1})
			require.NoError(t, err)
			require.NoError(t, l.Append(&evidence.Receipt{ID: "c-forged", Tool: "wu:delete", Status: evidence.StatusOK}))
			// Closed only after the check: closing signs, which needs the key (the
			// re-signing cases below).
			t.Cleanup(func() { _ = l.Close() })
		}, evidence.Uncovered},
		{"tail cut mid-line", local, func(t *testing.T, f tamperFixture) {
			data, err := os.ReadFile(f.file(evidence.ReceiptsFile))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(f.file(evidence.ReceiptsFile), data[:len(data)-40], 0o644))
		}, evidence.Malformed},
		{"truncated, covering checkpoints dropped (short of a checkpoint)", local, func(t *testing.T, f tamperFixture) {
			f.editLines(t, func(ls [][]byte) [][]byte { return ls[:6] })
			f.keepCheckpoints(t, func(line string) bool { return strings.Contains(line, `"n":4,`) })
		}, evidence.Uncovered},
		{"truncated, covering checkpoints dropped (at a checkpoint)", witness, func(t *testing.T, f tamperFixture) {
			f.editLines(t, func(ls [][]byte) [][]byte { return ls[:8] })
			f.keepCheckpoints(t, func(line string) bool { return !strings.Contains(line, `"n":10,`) })
		}, evidence.Truncated},
		{"log emptied, checkpoints kept", local, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.WriteFile(f.file(evidence.ReceiptsFile), nil, 0o644))
		}, evidence.Truncated},
		{"log and checkpoints emptied", witness, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.WriteFile(f.file(evidence.ReceiptsFile), nil, 0o644))
			require.NoError(t, os.WriteFile(f.file(evidence.CheckpointsFile), nil, 0o644))
		}, evidence.Truncated},
		{"checkpoints deleted", local, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.Remove(f.file(evidence.CheckpointsFile)))
		}, evidence.Uncovered},
		{"checkpoints emptied", local, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.WriteFile(f.file(evidence.CheckpointsFile), nil, 0o644))
		}, evidence.Uncovered},
		{"checkpoint count forged", local, func(t *testing.T, f tamperFixture) {
			data, err := os.ReadFile(f.file(evidence.CheckpointsFile))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(f.file(evidence.CheckpointsFile), bytes.Replace(data, []byte(`"n":10,`), []byte(`"n":9,`), 1), 0o644))
		}, evidence.BadCheckpt},
		{"chain rewritten and re-signed with the log's own key", witness, func(t *testing.T, f tamperFixture) {
			f.forge(t, 10)
		}, evidence.Edited},
		{"chain rewritten and re-signed with a fresh key pair (witness)", witness, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.Remove(f.file(evidence.SigningKeyFile)))
			require.NoError(t, os.Remove(f.file(evidence.VerifierKeyFile)))
			f.forge(t, 10)
		}, evidence.BadCheckpt},
		{"chain rewritten and re-signed with a fresh key pair (trusted key)", key, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.Remove(f.file(evidence.SigningKeyFile)))
			require.NoError(t, os.Remove(f.file(evidence.VerifierKeyFile)))
			f.forge(t, 10)
		}, evidence.BadKey},
		{"verifier key replaced", local, func(t *testing.T, f tamperFixture) {
			other := newTamperFixture(t)
			require.NoError(t, os.WriteFile(f.file(evidence.VerifierKeyFile), []byte(other.key), 0o644))
		}, evidence.BadCheckpt},
		{"verifier key replaced (trusted key)", key, func(t *testing.T, f tamperFixture) {
			other := newTamperFixture(t)
			require.NoError(t, os.WriteFile(f.file(evidence.VerifierKeyFile), []byte(other.key), 0o644))
		}, evidence.BadKey},
		{"verifier key deleted", local, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.Remove(f.file(evidence.VerifierKeyFile)))
		}, evidence.BadKey},
		{"witness from another log", both, func(t *testing.T, f tamperFixture) {
			other := newTamperFixture(t)
			data, err := os.ReadFile(other.witness)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(f.witness, data, 0o600))
		}, evidence.BadCheckpt},
	}
	require.GreaterOrEqual(t, len(cases), 20)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newTamperFixture(t)
			opts := evidence.VerifyOptions{}
			if tc.with == witness || tc.with == both {
				opts.Witness = f.witness
			}
			if tc.with == key || tc.with == both {
				opts.Key = f.key
			}
			clean, err := evidence.VerifyWith(f.dir, opts)
			require.NoError(t, err)
			require.True(t, clean.OK(), "before tampering: %+v", clean.Problems)

			tc.tamper(t, f)
			rep, err := evidence.VerifyWith(f.dir, opts)
			require.NoError(t, err)
			require.False(t, rep.OK(), "tampering went unnoticed")
			var kinds []string
			for _, p := range rep.Problems {
				kinds = append(kinds, p.Kind)
			}
			assert.Contains(t, kinds, tc.kind, "%+v", rep.Problems)
		})
	}
}

func TestVerifyNeedsTheWitnessForWhatTheDirectoryCannotTell(t *testing.T) {
	// Without the witness, a log rewritten and re-signed with its own key is consistent:
	// this is why the witness exists (the check above with the witness is what fails).
	f := newTamperFixture(t)
	f.forge(t, 10)
	rep, err := evidence.Verify(f.dir)
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%+v", rep.Problems)
}

func TestQuietLogIsCoveredWithoutClose(t *testing.T) {
	dir := t.TempDir()
	l, err := evidence.Open(evidence.Options{Dir: dir, CheckpointEvery: 1000, CheckpointIdle: 10 * time.Millisecond})
	require.NoError(t, err)
	defer l.Close()
	for i := range 3 {
		require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprint(i)}))
	}
	require.Eventually(t, func() bool {
		rep, err := evidence.Verify(dir)
		return err == nil && rep.OK() && rep.Covered == 3
	}, 10*time.Second, 10*time.Millisecond, "the quiet-period checkpoint never covered the records")
}

func TestLogRefusesToRunUnrecordedWhenItsFileIsReplaced(t *testing.T) {
	cases := map[string]func(t *testing.T, dir string){
		"replaced by rename": func(t *testing.T, dir string) {
			tmp := filepath.Join(dir, "new.jsonl")
			require.NoError(t, os.WriteFile(tmp, []byte("{}\n"), 0o644))
			require.NoError(t, os.Rename(tmp, filepath.Join(dir, evidence.ReceiptsFile)))
		},
		"removed": func(t *testing.T, dir string) {
			require.NoError(t, os.Remove(filepath.Join(dir, evidence.ReceiptsFile)))
		},
		"checkpoints replaced": func(t *testing.T, dir string) {
			tmp := filepath.Join(dir, "new.jsonl")
			require.NoError(t, os.WriteFile(tmp, nil, 0o644))
			require.NoError(t, os.Rename(tmp, filepath.Join(dir, evidence.CheckpointsFile)))
		},
		"truncated": func(t *testing.T, dir string) {
			require.NoError(t, os.Truncate(filepath.Join(dir, evidence.ReceiptsFile), 10))
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			l, err := evidence.Open(evidence.Options{Dir: dir, CheckpointIdle: -1})
			require.NoError(t, err)
			defer l.Close()
			require.NoError(t, l.Append(&evidence.Receipt{ID: "before"}))
			require.NoError(t, l.Err())
			damage(t, dir)
			if name != "truncated" {
				// Replacement and removal are seen before the next call runs.
				require.Error(t, l.Err())
			}
			assert.Error(t, l.Append(&evidence.Receipt{ID: "after"}), "a receipt appended to a file nobody can read")
			assert.Error(t, l.Err())
		})
	}
}
