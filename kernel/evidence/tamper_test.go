package evidence_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
)

// tamperFixture is a closed log of 10 receipts with checkpoints at 4, 8 and 10, a
// witness file outside the evidence directory, the heads the log published (as the
// control plane keeps them: `cmdbridge conductor checkpoints` exports this form), and
// the verifier key as the operator keeps it.
type tamperFixture struct {
	dir, witness, published, key string
}

func newTamperFixture(t *testing.T) tamperFixture {
	t.Helper()
	f := tamperFixture{dir: filepath.Join(t.TempDir(), "evidence"), witness: filepath.Join(t.TempDir(), "witness.jsonl"),
		published: filepath.Join(t.TempDir(), "published.jsonl")}
	l, err := evidence.Open(evidence.Config{Dir: f.dir, CheckpointEvery: 4, CheckpointIdle: -1, Witness: f.witness, OnCheckpoint: f.publish(t)})
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

// publish is the control plane's end of Config.OnCheckpoint: every head, kept.
func (f tamperFixture) publish(t *testing.T) func(evidence.Checkpoint) {
	return func(cp evidence.Checkpoint) {
		line, err := json.Marshal(cp)
		require.NoError(t, err)
		pf, err := os.OpenFile(f.published, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		require.NoError(t, err)
		_, err = pf.Write(append(line, '\n'))
		require.NoError(t, err)
		require.NoError(t, pf.Close())
	}
}

// reopen opens the log as a restarted server would (with the witness or not, always
// publishing).
func (f tamperFixture) reopen(t *testing.T, withWitness bool) *evidence.Log {
	t.Helper()
	opts := evidence.Config{Dir: f.dir, CheckpointEvery: 4, CheckpointIdle: -1, OnCheckpoint: f.publish(t)}
	if withWitness {
		opts.Witness = f.witness
	}
	l, err := evidence.Open(opts)
	require.NoError(t, err)
	return l
}

// restart reopens the log and closes it, which signs a head when the log is healthy.
func (f tamperFixture) restart(t *testing.T, withWitness bool) {
	t.Helper()
	l := f.reopen(t, withWitness)
	require.NoError(t, errors.Join(l.Err(), l.Close()) /* a refusing log's own error is the point of some cases */, "restart")
}

// restartRefused is restart for a log that must refuse to record.
func (f tamperFixture) restartRefused(t *testing.T, withWitness bool) {
	t.Helper()
	l := f.reopen(t, withWitness)
	require.ErrorIs(t, l.Err(), evidence.ErrTampered)
	require.NoError(t, l.Close())
}

// forgedLine is what someone who can append to receipts.jsonl but has no key can
// write: the next record of the chain, valid JSON, its hash recomputed (the tlog record
// hash of the line without its hash), with a made-up MAC or none.
func forgedLine(t *testing.T, dir, mac string) []byte {
	t.Helper()
	ls := lines(t, dir)
	var last evidence.Receipt
	require.NoError(t, json.Unmarshal(ls[len(ls)-1], &last))
	b, err := json.Marshal(evidence.Receipt{Seq: last.Seq + 1, ID: "c-forged", Tool: "wu:delete", Status: evidence.StatusOK, PrevHash: last.Hash})
	require.NoError(t, err)
	content := append(bytes.TrimSuffix(b, []byte(`,"hash":""}`)), '}')
	h := tlog.RecordHash(content)
	line := string(content[:len(content)-1])
	if mac != "" {
		line += `,"mac":"` + mac + `"`
	}
	return []byte(line + `,"hash":"` + hex.EncodeToString(h[:]) + "\"}\n")
}

func appendTo(t *testing.T, path string, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.Write(data)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// truncateAt cuts receipts.jsonl in place after its first n lines.
func truncateAt(t *testing.T, dir string, n int) {
	t.Helper()
	var size int64
	for _, l := range lines(t, dir)[:n] {
		size += int64(len(bytes.TrimSuffix(l, []byte("\n")))) + 1
	}
	require.NoError(t, os.Truncate(filepath.Join(dir, evidence.ReceiptsFile), size))
}

// maxHead is the largest n of the checkpoint lines of path.
func maxHead(t *testing.T, path string) int64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	require.NoError(t, err)
	var n int64
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var cp evidence.Checkpoint
		if json.Unmarshal([]byte(line), &cp) == nil {
			n = max(n, cp.N)
		}
	}
	return n
}

// forge rewrites the log from scratch with an attacker's writer: the receipts (and the
// checkpoints) are replaced by n new records, one of them changed, signed with whatever
// signing key the directory holds then (the log's own, or a fresh pair after the keys
// were removed).
func (f tamperFixture) forge(t *testing.T, n int) {
	t.Helper()
	require.NoError(t, os.Remove(f.file(evidence.ReceiptsFile)))
	require.NoError(t, os.Remove(f.file(evidence.CheckpointsFile)))
	l, err := evidence.Open(evidence.Config{Dir: f.dir, CheckpointEvery: 4, CheckpointIdle: -1})
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

// TestRedTeamVerifyDetectsEveryTampering is the tamper table: each row damages a
// closed log as an attacker could, and Verify (with what the row names besides the
// directory) must report the damage as the row's kind.
func TestRedTeamVerifyDetectsEveryTampering(t *testing.T) {
	const (
		local     = iota // only what the directory holds
		witness          // plus the operator's witness file
		key              // plus the operator's trusted verifier key
		both             // witness and key
		published        // plus the heads the control plane kept (its export)
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
			l, err := evidence.Open(evidence.Config{Dir: f.dir, CheckpointEvery: 100, CheckpointIdle: -1})
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
		// Issue #20 item 3: without the key, nobody extends, edits, truncates or rewinds
		// the log unseen.
		{"forged line appended: valid JSON, chain hash recomputed, no MAC", local, func(t *testing.T, f tamperFixture) {
			appendTo(t, f.file(evidence.ReceiptsFile), forgedLine(t, f.dir, ""))
		}, evidence.Forged},
		{"forged line appended with a made-up MAC", local, func(t *testing.T, f tamperFixture) {
			appendTo(t, f.file(evidence.ReceiptsFile), forgedLine(t, f.dir, strings.Repeat("ab", 32)))
		}, evidence.Forged},
		{"forged line appended, then a server restarted and closed", local, func(t *testing.T, f tamperFixture) {
			appendTo(t, f.file(evidence.ReceiptsFile), forgedLine(t, f.dir, ""))
			f.restartRefused(t, false)
		}, evidence.Forged},
		{"forged line inserted in the middle with a made-up MAC", local, func(t *testing.T, f tamperFixture) {
			f.editLines(t, func(ls [][]byte) [][]byte {
				var r evidence.Receipt
				require.NoError(t, json.Unmarshal(ls[4], &r))
				forged := bytes.Replace(ls[4], []byte(`"tool":"wu:status"`), []byte(`"tool":"wu:delete"`), 1)
				content := bytes.Replace(forged, []byte(`,"mac":"`+r.MAC+`","hash":"`+r.Hash+`"}`), []byte("}"), 1)
				h := tlog.RecordHash(bytes.TrimSpace(content))
				forged = bytes.Replace(forged, []byte(r.Hash), []byte(hex.EncodeToString(h[:])), 1)
				return append(ls[:4:4], append([][]byte{forged}, ls[5:]...)...)
			})
		}, evidence.Forged},
		{"valid line replayed at the end", local, func(t *testing.T, f tamperFixture) {
			appendTo(t, f.file(evidence.ReceiptsFile), lines(t, f.dir)[3])
		}, evidence.Reordered},
		{"truncated in place at a line boundary", local, func(t *testing.T, f tamperFixture) {
			truncateAt(t, f.dir, 7)
		}, evidence.Truncated},
		{"checkpoints deleted, server restarted (witness)", witness, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.Remove(f.file(evidence.CheckpointsFile)))
			f.restart(t, true)
		}, evidence.Rewound},
		{"checkpoints emptied, server restarted (control plane)", published, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.WriteFile(f.file(evidence.CheckpointsFile), nil, 0o644))
			f.restart(t, false)
		}, evidence.Rewound},
		{"records and checkpoints rewound together, server restarted (witness)", witness, func(t *testing.T, f tamperFixture) {
			truncateAt(t, f.dir, 6)
			require.NoError(t, os.WriteFile(f.file(evidence.CheckpointsFile), nil, 0o644))
			f.restartRefused(t, true)
		}, evidence.Truncated},
		{"records and checkpoints rewound together, server restarted (control plane)", published, func(t *testing.T, f tamperFixture) {
			truncateAt(t, f.dir, 6)
			require.NoError(t, os.WriteFile(f.file(evidence.CheckpointsFile), nil, 0o644))
			f.restart(t, false)
		}, evidence.Truncated},
		{"records and checkpoints emptied, server restarted (control plane)", published, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.WriteFile(f.file(evidence.ReceiptsFile), nil, 0o644))
			require.NoError(t, os.WriteFile(f.file(evidence.CheckpointsFile), nil, 0o644))
			f.restart(t, false)
		}, evidence.Truncated},
		{"whole log replaced under a fresh key pair (control plane)", published, func(t *testing.T, f tamperFixture) {
			require.NoError(t, os.Remove(f.file(evidence.SigningKeyFile)))
			require.NoError(t, os.Remove(f.file(evidence.VerifierKeyFile)))
			f.forge(t, 10)
		}, evidence.BadCheckpt},
	}
	require.GreaterOrEqual(t, len(cases), 32)
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
			if tc.with == published {
				opts.Published = []string{f.published}
			}
			clean, err := evidence.VerifyWith(f.dir, opts)
			require.NoError(t, err)
			require.True(t, clean.OK(), "before tampering: %+v", clean.Problems)

			tc.tamper(t, f)
			rep, err := evidence.VerifyWith(f.dir, opts)
			require.NoError(t, err)
			require.False(t, rep.OK(), "tampering went unnoticed")
			kinds := problemKinds(rep)
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
	l, err := evidence.Open(evidence.Config{Dir: dir, CheckpointEvery: 1000, CheckpointIdle: 10 * time.Millisecond})
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
			l, err := evidence.Open(evidence.Config{Dir: dir, CheckpointIdle: -1})
			require.NoError(t, err)
			defer l.Close()
			require.NoError(t, l.Append(&evidence.Receipt{ID: "before"}))
			require.NoError(t, l.Err())
			damage(t, dir)
			// Replacement, removal and truncation are seen before the next call runs.
			require.Error(t, l.Err())
			assert.Error(t, l.Append(&evidence.Receipt{ID: "after"}), "a receipt appended to a file nobody can read")
			assert.Error(t, l.Err())
		})
	}
}

// TestRedTeamLiveLogRefusesTampering damages the log under a running writer: the next
// call's check (Err) must refuse, nothing more is appended, no head is signed over a
// line the writer did not write or cannot authenticate, and a restarted writer refuses
// too (it opens refusing rather than signing).
func TestRedTeamLiveLogRefusesTampering(t *testing.T) {
	cases := []struct {
		name   string
		tamper func(t *testing.T, dir string)
		kind   string
	}{
		{"forged line appended, no MAC", func(t *testing.T, dir string) {
			appendTo(t, filepath.Join(dir, evidence.ReceiptsFile), forgedLine(t, dir, ""))
		}, evidence.Forged},
		{"forged line appended, made-up MAC", func(t *testing.T, dir string) {
			appendTo(t, filepath.Join(dir, evidence.ReceiptsFile), forgedLine(t, dir, strings.Repeat("0f", 32)))
		}, evidence.Forged},
		{"valid line replayed", func(t *testing.T, dir string) {
			appendTo(t, filepath.Join(dir, evidence.ReceiptsFile), lines(t, dir)[1])
		}, evidence.Reordered},
		{"truncated in place", func(t *testing.T, dir string) {
			truncateAt(t, dir, 2)
		}, evidence.Truncated},
		{"emptied in place", func(t *testing.T, dir string) {
			require.NoError(t, os.Truncate(filepath.Join(dir, evidence.ReceiptsFile), 0))
		}, evidence.Truncated},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, witness := t.TempDir(), filepath.Join(t.TempDir(), "witness.jsonl")
			opts := evidence.Config{Dir: dir, Witness: witness, CheckpointIdle: -1}
			l, err := evidence.Open(opts)
			require.NoError(t, err)
			for i := range 5 {
				require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprint("c-", i)}))
			}
			require.NoError(t, l.Checkpoint())
			require.NoError(t, l.Err())

			tc.tamper(t, dir)
			assert.ErrorIs(t, l.Err(), evidence.ErrTampered, "the next call is refused")
			assert.Error(t, l.Append(&evidence.Receipt{ID: "after"}))
			require.NoError(t, l.Close())
			assert.LessOrEqual(t, maxHead(t, filepath.Join(dir, evidence.CheckpointsFile)), int64(5), "a head signed over the forged line")
			assert.LessOrEqual(t, maxHead(t, witness), int64(5), "a head witnessed over the forged line")

			l, err = evidence.Open(opts)
			require.NoError(t, err)
			assert.ErrorIs(t, l.Err(), evidence.ErrTampered, "a restarted writer records again")
			assert.Error(t, l.Append(&evidence.Receipt{ID: "after restart"}))
			require.NoError(t, l.Close())
			assert.LessOrEqual(t, maxHead(t, filepath.Join(dir, evidence.CheckpointsFile)), int64(5), "a restarted writer signed over the forged line")

			rep, err := evidence.VerifyWith(dir, evidence.VerifyOptions{Witness: witness})
			require.NoError(t, err)
			kinds := problemKinds(rep)
			assert.Contains(t, kinds, tc.kind, "%+v", rep.Problems)
		})
	}
}

// TestRedTeamRestartRefusesARewindTheWitnessHolds rewinds records and checkpoints
// together while no writer runs: the restarted writer, whose witness holds a larger
// head, refuses to record instead of starting over.
func TestRedTeamRestartRefusesARewindTheWitnessHolds(t *testing.T) {
	dir, witness := t.TempDir(), filepath.Join(t.TempDir(), "witness.jsonl")
	opts := evidence.Config{Dir: dir, Witness: witness, CheckpointIdle: -1}
	l, err := evidence.Open(opts)
	require.NoError(t, err)
	for i := range 6 {
		require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprint("c-", i)}))
	}
	require.NoError(t, l.Close())
	truncateAt(t, dir, 3)
	require.NoError(t, os.WriteFile(filepath.Join(dir, evidence.CheckpointsFile), nil, 0o644))

	l, err = evidence.Open(opts)
	require.NoError(t, err)
	assert.ErrorIs(t, l.Err(), evidence.ErrTampered)
	assert.Error(t, l.Append(&evidence.Receipt{ID: "after"}))
	require.NoError(t, l.Close())
	assert.Equal(t, int64(0), maxHead(t, filepath.Join(dir, evidence.CheckpointsFile)), "the rewound log was signed")
}

// TestRedTeamReceiptOfACallInFlightSurvivesTruncation truncates the log while a call
// runs (after the call's check, before its receipt): the receipt is still written,
// the head the writer can vouch for (which covers the records cut away) is signed, and
// the log then refuses. Verify sees the records cut away before it. It holds whether
// the receipt's own append finds the cut or another check found it first (the next
// call's, the quiet-period checkpoint's); a call admitted after the cut is refused.
func TestRedTeamReceiptOfACallInFlightSurvivesTruncation(t *testing.T) {
	for _, foundFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("found first by another check: %v", foundFirst), func(t *testing.T) {
			dir := t.TempDir()
			l, err := evidence.Open(evidence.Config{Dir: dir, CheckpointIdle: -1})
			require.NoError(t, err)
			for i := range 3 {
				require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprint("c-", i)}))
			}
			require.NoError(t, l.Checkpoint())
			require.NoError(t, l.Err(), "the call is admitted")

			truncateAt(t, dir, 1)
			if foundFirst {
				require.ErrorIs(t, l.Err(), evidence.ErrTampered, "another call's check")
				assert.Error(t, l.Append(&evidence.Receipt{ID: "c-refused"}), "the receipt of a call admitted after the cut")
			}
			r := &evidence.Receipt{ID: "c-in-flight", Tool: "config:set", Status: evidence.StatusOK}
			require.NoError(t, l.AppendAdmitted(r), "the receipt of a call that ran")
			assert.ErrorIs(t, l.Err(), evidence.ErrTampered, "the next call is refused")
			require.NoError(t, l.Close())

			data, err := os.ReadFile(filepath.Join(dir, evidence.ReceiptsFile))
			require.NoError(t, err)
			assert.Contains(t, string(data), `"id":"c-in-flight"`)
			assert.NotContains(t, string(data), `"id":"c-refused"`)
			assert.Equal(t, int64(4), maxHead(t, filepath.Join(dir, evidence.CheckpointsFile)))
			rep, err := evidence.Verify(dir)
			require.NoError(t, err)
			kinds := problemKinds(rep)
			assert.Contains(t, kinds, evidence.Deleted, "%+v", rep.Problems)
		})
	}
}

// TestRedTeamReceiptOfACallInFlightSurvivesAForgedLine: a line forged while a call
// runs is left out; the call's receipt follows it in the file but continues the
// authentic chain under a signed head, so Verify reports the forged line and nothing
// else.
func TestRedTeamReceiptOfACallInFlightSurvivesAForgedLine(t *testing.T) {
	for _, mac := range []string{"", strings.Repeat("5a", 32)} {
		t.Run(fmt.Sprintf("mac %q", mac), func(t *testing.T) {
			dir := t.TempDir()
			l, err := evidence.Open(evidence.Config{Dir: dir, CheckpointIdle: -1})
			require.NoError(t, err)
			for i := range 3 {
				require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprint("c-", i)}))
			}
			require.NoError(t, l.Err(), "the call is admitted")
			appendTo(t, filepath.Join(dir, evidence.ReceiptsFile), forgedLine(t, dir, mac))
			require.NoError(t, l.AppendAdmitted(&evidence.Receipt{ID: "c-in-flight"}))
			assert.ErrorIs(t, l.Err(), evidence.ErrTampered)
			require.NoError(t, l.Close())

			rep, err := evidence.Verify(dir)
			require.NoError(t, err)
			require.Len(t, rep.Problems, 1, "%+v", rep.Problems)
			assert.Equal(t, evidence.Forged, rep.Problems[0].Kind)
			assert.Equal(t, int64(4), rep.Covered)
		})
	}
}

// Two writers of one workspace (two kernels, two processes) share the key through the
// evidence directory: each one's records authenticate for the other, and neither
// refuses.
func TestSiblingWritersAreNotTampering(t *testing.T) {
	dir := t.TempDir()
	a, err := evidence.Open(evidence.Config{Dir: dir, CheckpointIdle: -1, CheckpointEvery: 3})
	require.NoError(t, err)
	b, err := evidence.Open(evidence.Config{Dir: dir, CheckpointIdle: -1, CheckpointEvery: 3})
	require.NoError(t, err)
	for i := range 10 {
		w := a
		if i%3 == 0 {
			w = b
		}
		require.NoError(t, w.Err())
		require.NoError(t, w.Append(&evidence.Receipt{ID: fmt.Sprint("c-", i)}))
	}
	require.NoError(t, a.Err())
	require.NoError(t, b.Err())
	require.NoError(t, a.Close())
	require.NoError(t, b.Close())
	rep, err := evidence.Verify(dir)
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, 10, rep.Records)
}

// A log written before records carried a MAC still opens and verifies: a signed head
// covers its records instead. A MAC-less record past that head is forged.
func TestLogFromBeforeMACsOpens(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, dir, 5, 100)
	strip := func() {
		var out [][]byte
		for _, l := range lines(t, dir) {
			var r evidence.Receipt
			require.NoError(t, json.Unmarshal(l, &r))
			out = append(out, bytes.Replace(l, []byte(`,"mac":"`+r.MAC+`"`), nil, 1))
		}
		rewrite(t, dir, out)
	}
	strip()
	rep, err := evidence.Verify(dir)
	require.NoError(t, err)
	require.True(t, rep.OK(), "%+v", rep.Problems)

	// A MAC-less line past the signed head is forged, even in a log of MAC-less records.
	clean := lines(t, dir)
	appendTo(t, filepath.Join(dir, evidence.ReceiptsFile), forgedLine(t, dir, ""))
	rep, err = evidence.Verify(dir)
	require.NoError(t, err)
	assert.Contains(t, kindsOf(rep), evidence.Forged, "%+v", rep.Problems)
	rewrite(t, dir, clean)

	l, err := evidence.Open(evidence.Config{Dir: dir, CheckpointIdle: -1})
	require.NoError(t, err)
	require.NoError(t, l.Err())
	require.NoError(t, l.Append(&evidence.Receipt{ID: "new"}))
	require.NoError(t, l.Close())
	rep, err = evidence.Verify(dir)
	require.NoError(t, err)
	require.True(t, rep.OK(), "%+v", rep.Problems)

	appendTo(t, filepath.Join(dir, evidence.ReceiptsFile), forgedLine(t, dir, ""))
	rep, err = evidence.Verify(dir)
	require.NoError(t, err)
	assert.Contains(t, kindsOf(rep), evidence.Forged, "%+v", rep.Problems)
	l, err = evidence.Open(evidence.Config{Dir: dir, CheckpointIdle: -1})
	require.NoError(t, err)
	assert.ErrorIs(t, l.Err(), evidence.ErrTampered)
	require.NoError(t, l.Close())
}

func kindsOf(rep evidence.Report) []string {
	var out []string
	for _, p := range rep.Problems {
		out = append(out, p.Kind)
	}
	return out
}

// TestRedTeamRestartRefusesALogItsOwnHeadsContradict damages a closed log without a
// witness: the restarted writer holds it to its own checkpoints and records, and
// refuses to record (and to sign) rather than start from the damage.
func TestRedTeamRestartRefusesALogItsOwnHeadsContradict(t *testing.T) {
	cases := map[string]func(t *testing.T, dir string){
		"truncated in place below the signed head": func(t *testing.T, dir string) {
			truncateAt(t, dir, 2)
		},
		"record edited in place": func(t *testing.T, dir string) {
			ls := lines(t, dir)
			ls[1] = bytes.Replace(ls[1], []byte(`"id":"c-1"`), []byte(`"id":"c-9"`), 1)
			rewrite(t, dir, ls)
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeLog(t, dir, 5, 100)
			damage(t, dir)
			l, err := evidence.Open(evidence.Config{Dir: dir, CheckpointIdle: -1})
			require.NoError(t, err)
			assert.ErrorIs(t, l.Err(), evidence.ErrTampered)
			assert.Error(t, l.Append(&evidence.Receipt{ID: "after"}))
			require.NoError(t, l.Close())
			data, err := os.ReadFile(filepath.Join(dir, evidence.CheckpointsFile))
			require.NoError(t, err)
			assert.Equal(t, 1, strings.Count(string(data), "\n"), "a head was signed over the damaged log")
		})
	}
}

// problemKinds are the kinds of rep's problems, in order.
func problemKinds(rep evidence.Report) []string {
	var kinds []string
	for _, p := range rep.Problems {
		kinds = append(kinds, p.Kind)
	}
	return kinds
}
