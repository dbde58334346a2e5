package evidence

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ShadowTally is what a log's receipts say of one tool's shadow runs: the calls served
// on its primary lane while its native implementation ran on a copy and was compared.
type ShadowTally struct {
	Runs       int `json:"runs"`
	Matches    int `json:"matches"`
	Mismatches int `json:"mismatches"`
	// Errors are runs whose shadow could not be made or finished.
	Errors int `json:"errors"`
	// Since is the first run's time, Last the last one's (RFC 3339).
	Since string `json:"since"`
	Last  string `json:"last"`
	// LastMismatch is the latest run that disagreed, with its differences.
	LastMismatch *ShadowMismatch `json:"last_mismatch,omitempty"`
	// SinceMismatch counts the matching runs after the last mismatch (all of them when
	// there was none).
	SinceMismatch int `json:"since_mismatch"`
}

// ShadowMismatch is one disagreeing shadow run.
type ShadowMismatch struct {
	Receipt string   `json:"receipt"`
	Time    string   `json:"time"`
	Diffs   []string `json:"diffs"`
}

// ShadowSummary tallies the shadow runs recorded in the log in dir, per tool. verified
// says the log passed Verify: a tally from a log that does not verify may count records
// nobody with the log's key wrote, so nothing should be decided on it. A log that does
// not exist yet is an empty summary, verified.
func ShadowSummary(dir string) (tallies map[string]*ShadowTally, verified bool, err error) {
	tallies = map[string]*ShadowTally{}
	f, err := os.Open(filepath.Join(dir, ReceiptsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return tallies, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("evidence: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r struct {
			ID     string      `json:"id"`
			Time   string      `json:"time"`
			Tool   string      `json:"tool"`
			Shadow *ShadowNote `json:"shadow"`
		}
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Shadow == nil {
			continue // Verify reports a malformed line
		}
		t := tallies[r.Tool]
		if t == nil {
			t = &ShadowTally{Since: r.Time}
			tallies[r.Tool] = t
		}
		t.Runs++
		t.Last = r.Time
		switch {
		case r.Shadow.Error != "":
			t.Errors++
		case r.Shadow.Match:
			t.Matches++
			t.SinceMismatch++
		default:
			t.Mismatches++
			t.SinceMismatch = 0
			t.LastMismatch = &ShadowMismatch{Receipt: r.ID, Time: r.Time, Diffs: r.Shadow.Diffs}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, false, fmt.Errorf("evidence: %w", err)
	}
	rep, err := Verify(dir)
	if err != nil {
		return nil, false, err
	}
	return tallies, rep.OK(), nil
}
