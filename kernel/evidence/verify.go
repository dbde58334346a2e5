package evidence

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// Kinds of damage Verify reports.
const (
	Edited     = "edited"
	Deleted    = "deleted"
	Reordered  = "reordered"
	Truncated  = "truncated"
	Malformed  = "malformed"
	BadCheckpt = "bad_checkpoint"
	// Uncovered: records no valid signed checkpoint covers (a forged tail, or checkpoints
	// deleted or emptied).
	Uncovered = "uncovered"
	// BadKey: the verifier key is missing, unreadable, or not the key the operator trusts.
	BadKey = "bad_key"
	// Forged: a record that was not written with the log's key (its MAC is missing or
	// wrong), such as a line appended with a recomputed chain hash.
	Forged = "forged"
	// Rewound: a head published elsewhere (the witness, the control plane) that the
	// local checkpoints no longer hold: they were deleted, emptied or rewound.
	Rewound = "rewound"
)

// VerifyOptions name what Verify checks the log against besides its own directory.
type VerifyOptions struct {
	// Key is the verifier key the operator trusts (the text of verifier.key, kept
	// elsewhere). When set, checkpoints are checked with it and a verifier.key in the
	// directory that differs is a BadKey problem: a log re-signed with a fresh key pair
	// fails.
	Key string
	// Witness is a file of checkpoints kept outside the evidence directory (Config.Witness
	// of the log, or one copied from the event stream). Every checkpoint in it must hold
	// for the log: a log rewritten and re-signed with its own key, or truncated together
	// with its checkpoints, fails.
	Witness string
	// Published are more files of heads kept elsewhere, in the same form: the control
	// plane's export of the heads it kept for this workspace
	// (`cmdbridge conductor checkpoints WS`). Each is checked like the witness.
	Published []string
}

// Problem is one piece of damage. Line is the 1-based line of receipts.jsonl where it was
// seen (0 when it concerns the log as a whole); Seq is the record it concerns.
type Problem struct {
	Kind    string `json:"kind"`
	Line    int    `json:"line"`
	Seq     int64  `json:"seq"`
	Message string `json:"message"`
}

// Report is the outcome of Verify.
type Report struct {
	Records     int       `json:"records"`
	Checkpoints int       `json:"checkpoints"`
	Covered     int64     `json:"covered"`
	Problems    []Problem `json:"problems"`
}

// OK reports whether no damage was found.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// Verify checks the log in dir against its own checkpoints and verifier key; see
// VerifyWith.
func Verify(dir string) (Report, error) { return VerifyWith(dir, VerifyOptions{}) }

// VerifyWith checks the log in dir without modifying it. The error is for a log that
// cannot be read at all; damage is reported in Report.Problems. Every record must carry
// a valid MAC (when signing.key is readable: the MAC key derives from it) or be covered
// by a valid signed checkpoint; the chain must be whole; every record must be covered by
// a valid signed checkpoint; the verifier key must be present (and be opts.Key when
// given); and every head of opts.Witness and opts.Published must hold: signed, no larger
// than the log, consistent with the log's tree head (a tlog consistency proof), and
// still among the local checkpoints.
func VerifyWith(dir string, opts VerifyOptions) (Report, error) {
	var rep Report
	data, err := os.ReadFile(filepath.Join(dir, ReceiptsFile))
	if err != nil {
		return rep, fmt.Errorf("evidence verify: %w", err)
	}
	// The MAC key derives from the signing key; without it (another user, a copy of
	// the log without its keys) MACs go unchecked and the signed checkpoints carry the
	// proof alone.
	var mac hash.Hash
	if skey, err := os.ReadFile(filepath.Join(dir, SigningKeyFile)); err == nil {
		if k, err := keysOf(string(skey)); err == nil {
			mac = newMAC(k)
		}
	}
	type rec struct {
		line   int
		seq    int64
		prev   string
		hash   string
		leaf   tlog.Hash
		noMAC  bool
		edited bool
	}
	var recs []rec
	// Writers put a MAC on every record since records have one: a record without one
	// after one with one was not written by a writer.
	seenMAC := false
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := bytes.TrimSpace(raw)
		if len(line) == 0 {
			continue
		}
		var r Receipt
		content, stored, recMAC, serr := splitLine(line)
		if serr != nil || json.Unmarshal(line, &r) != nil {
			rep.Problems = append(rep.Problems, Problem{Kind: Malformed, Line: i + 1,
				Message: fmt.Sprintf("line %d is not a receipt", i+1)})
			continue
		}
		leaf := tlog.RecordHash(content)
		edited := hex.EncodeToString(leaf[:]) != stored
		if edited {
			rep.Problems = append(rep.Problems, Problem{Kind: Edited, Line: i + 1, Seq: r.Seq,
				Message: fmt.Sprintf("record %d (line %d) was edited: its content does not match its hash", r.Seq, i+1)})
		}
		if mac != nil && recMAC != "" && !macOK(mac, leaf, recMAC) && !edited {
			// Not written with the key: left out of the chain, which goes on from the
			// last authentic record (as the writers' did).
			rep.Problems = append(rep.Problems, Problem{Kind: Forged, Line: i + 1, Seq: r.Seq,
				Message: fmt.Sprintf("record %d (line %d) was not written with the log's key: its MAC does not verify", r.Seq, i+1)})
			continue
		}
		if recMAC == "" && seenMAC && !edited {
			rep.Problems = append(rep.Problems, Problem{Kind: Forged, Line: i + 1, Seq: r.Seq,
				Message: fmt.Sprintf("record %d (line %d) carries no MAC, after records that do: not written with the log's key", r.Seq, i+1)})
			continue
		}
		seenMAC = seenMAC || recMAC != ""
		recs = append(recs, rec{line: i + 1, seq: r.Seq, prev: r.PrevHash, hash: stored, leaf: leaf, noMAC: recMAC == "", edited: edited})
	}
	rep.Records = len(recs)

	present := map[int64]bool{}
	for _, r := range recs {
		present[r.seq] = true
	}
	var prevSeq int64
	prevHash := ""
	for i, r := range recs {
		want := prevSeq + 1
		switch {
		case r.seq == want:
			if r.prev != prevHash {
				// The previous record was rewritten together with its own hash.
				p := Problem{Kind: Edited, Line: r.line, Seq: prevSeq,
					Message: fmt.Sprintf("record %d was rewritten: record %d's prev_hash no longer matches it", prevSeq, r.seq)}
				if i > 0 {
					p.Line = recs[i-1].line
				}
				rep.Problems = append(rep.Problems, p)
			}
		case r.seq < want:
			rep.Problems = append(rep.Problems, Problem{Kind: Reordered, Line: r.line, Seq: r.seq,
				Message: fmt.Sprintf("record %d appears at line %d, after record %d", r.seq, r.line, prevSeq)})
		default:
			missing := []string{}
			later := false
			for s := want; s < r.seq; s++ {
				if present[s] {
					later = true
				} else {
					missing = append(missing, fmt.Sprint(s))
				}
			}
			if later {
				rep.Problems = append(rep.Problems, Problem{Kind: Reordered, Line: r.line, Seq: r.seq,
					Message: fmt.Sprintf("record %d appears at line %d, before record %d", r.seq, r.line, want)})
			} else {
				rep.Problems = append(rep.Problems, Problem{Kind: Deleted, Line: r.line, Seq: want,
					Message: fmt.Sprintf("record(s) %s deleted before line %d", strings.Join(missing, ", "), r.line)})
			}
		}
		if r.seq > prevSeq {
			prevSeq, prevHash = r.seq, r.hash
		}
	}

	cps, err := readCheckpoints(filepath.Join(dir, CheckpointsFile))
	if err != nil {
		return rep, fmt.Errorf("evidence verify: %w", err)
	}
	rep.Checkpoints = len(cps)
	verifier, keyProblem := verifierFor(dir, opts.Key)
	if keyProblem != "" && (len(recs) > 0 || len(cps) > 0) {
		rep.Problems = append(rep.Problems, Problem{Kind: BadKey, Message: keyProblem})
	}
	var hashes []tlog.Hash
	reader := tlog.HashReaderFunc(func(idx []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(idx))
		for i, x := range idx {
			if x >= int64(len(hashes)) {
				return nil, fmt.Errorf("hash %d not available", x)
			}
			out[i] = hashes[x]
		}
		return out, nil
	})
	for i, r := range recs {
		stored, err := tlog.StoredHashesForRecordHash(int64(i), r.leaf, reader)
		if err != nil {
			return rep, err
		}
		hashes = append(hashes, stored...)
	}
	clean := rep.OK()
	// The log's own tree head, which every head kept elsewhere must be a prefix of.
	var head tlog.Tree
	if clean && len(recs) > 0 {
		head.N = int64(len(recs))
		if head.Hash, err = tlog.TreeHash(head.N, reader); err != nil {
			return rep, err
		}
	}
	type headKey struct {
		n    int64
		root string
	}
	local := map[headKey]bool{}
	// check verifies one checkpoint against the log; it returns false when the
	// checkpoint itself is not valid.
	check := func(cp Checkpoint, source string) bool {
		if verifier == nil {
			return false
		}
		tree, err := cp.Tree(verifier)
		if err != nil {
			rep.Problems = append(rep.Problems, Problem{Kind: BadCheckpt, Seq: cp.N,
				Message: fmt.Sprintf("%s checkpoint at %d: signature or content invalid", source, cp.N)})
			return false
		}
		if cp.N > prevSeq {
			rep.Problems = append(rep.Problems, Problem{Kind: Truncated, Seq: prevSeq + 1,
				Message: fmt.Sprintf("a signed %s checkpoint covers %d records but the log ends at record %d: records %d..%d were truncated", source, cp.N, prevSeq, prevSeq+1, cp.N)})
			return true
		}
		if !clean || cp.N > int64(len(recs)) {
			return true
		}
		// The head signed then and the log's head now: a tlog consistency proof from
		// one to the other, as a keeper of heads checks a log it does not hold.
		proof, err := tlog.ProveTree(head.N, tree.N, reader)
		if err == nil {
			err = tlog.CheckTree(proof, head.N, head.Hash, tree.N, tree.Hash)
		}
		if err != nil {
			rep.Problems = append(rep.Problems, Problem{Kind: Edited, Seq: cp.N,
				Message: fmt.Sprintf("records 1..%d no longer match the signed %s checkpoint (rewritten with recomputed hashes)", cp.N, source)})
			clean = false
		}
		return true
	}
	for _, cp := range cps {
		if check(cp, "local") {
			local[headKey{cp.N, cp.Root}] = true
			if cp.N > rep.Covered && cp.N <= prevSeq {
				rep.Covered = cp.N
			}
		}
	}
	elsewhere := []struct{ path, source string }{}
	if opts.Witness != "" {
		elsewhere = append(elsewhere, struct{ path, source string }{opts.Witness, "witness"})
	}
	for _, p := range opts.Published {
		elsewhere = append(elsewhere, struct{ path, source string }{p, "published"})
	}
	for _, e := range elsewhere {
		wcps, err := readCheckpoints(e.path)
		if err != nil {
			return rep, fmt.Errorf("evidence verify: %s: %w", e.source, err)
		}
		for _, cp := range wcps {
			if check(cp, e.source) && !local[headKey{cp.N, cp.Root}] {
				rep.Problems = append(rep.Problems, Problem{Kind: Rewound, Seq: cp.N,
					Message: fmt.Sprintf("the %s checkpoint at %d is not among the local checkpoints: they were deleted, emptied or rewound", e.source, cp.N)})
			}
		}
	}
	if verifier != nil && rep.Covered < prevSeq {
		rep.Problems = append(rep.Problems, Problem{Kind: Uncovered, Seq: rep.Covered + 1,
			Message: fmt.Sprintf("records %d..%d are covered by no valid signed checkpoint (forged tail, or checkpoints removed)", rep.Covered+1, prevSeq)})
	}
	if mac != nil {
		for i, r := range recs {
			if r.noMAC && int64(i) >= rep.Covered && !r.edited {
				rep.Problems = append(rep.Problems, Problem{Kind: Forged, Line: r.line, Seq: r.seq,
					Message: fmt.Sprintf("record %d (line %d) carries no MAC and no signed checkpoint covers it: not written with the log's key", r.seq, r.line)})
			}
		}
	}
	return rep, nil
}

// verifierFor returns the verifier checkpoints are checked with, and a problem with the
// key when there is one. A trusted key wins over the directory's; without one, the
// directory's verifier.key must exist and parse.
func verifierFor(dir, trusted string) (note.Verifier, string) {
	local, err := os.ReadFile(filepath.Join(dir, VerifierKeyFile))
	localText := strings.TrimSpace(string(local))
	if trusted = strings.TrimSpace(trusted); trusted != "" {
		v, verr := note.NewVerifier(trusted)
		if verr != nil {
			return nil, fmt.Sprintf("the trusted verifier key does not parse: %v", verr)
		}
		switch {
		case err != nil:
			return v, fmt.Sprintf("%s is missing or unreadable: %v", VerifierKeyFile, err)
		case localText != trusted:
			return v, fmt.Sprintf("%s is not the trusted verifier key (replaced?)", VerifierKeyFile)
		}
		return v, ""
	}
	if err != nil {
		return nil, fmt.Sprintf("%s is missing or unreadable: checkpoints cannot be checked: %v", VerifierKeyFile, err)
	}
	v, verr := note.NewVerifier(localText)
	if verr != nil {
		return nil, fmt.Sprintf("%s does not parse: %v", VerifierKeyFile, verr)
	}
	return v, ""
}
