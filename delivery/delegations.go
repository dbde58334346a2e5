package delivery

import (
	"errors"
	"path/filepath"
	"sort"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Delegation intents and statuses (corpus §1.13).
const (
	IntentDelegation  = "delegation"
	IntentLegacySpawn = "legacy-spawn"

	DelegationPending   = "pending"
	DelegationCompleted = "completed"
	DelegationTimeout   = "timeout"
	DelegationCrashed   = "crashed"
	DelegationEscalated = "escalated"
)

// BriefAttestation is the optional proof of the brief a delegation was given.
type BriefAttestation struct {
	Algorithm    string `json:"algorithm"`
	PromptHash   string `json:"promptHash"`
	PromptLength int    `json:"promptLength"`
	GeneratedAt  string `json:"generatedAt"`
	ClientName   string `json:"clientName"`
}

// Delegation is one record of .lumenflow/state/delegation-registry.jsonl, in its key
// order. CompletedAt is null until the delegation ends.
type Delegation struct {
	ID               string            `json:"id"`
	ParentWUID       string            `json:"parentWuId"`
	TargetWUID       string            `json:"targetWuId"`
	Lane             string            `json:"lane"`
	Intent           string            `json:"intent"`
	DelegatedAt      string            `json:"delegatedAt"`
	Status           string            `json:"status"`
	CompletedAt      *string           `json:"completedAt"`
	BriefAttestation *BriefAttestation `json:"briefAttestation,omitempty"`
}

// validateDelegation rejects records a reader cannot use.
func validateDelegation(d *Delegation) error {
	switch {
	case d.ID == "":
		return errors.New("delegation record needs id")
	case d.ParentWUID == "" || d.TargetWUID == "":
		return errors.New("delegation record needs parentWuId and targetWuId")
	}
	return nil
}

// DelegationRegistry is the registry as read: the latest record per id, in the order ids
// first appear, and the lines that were skipped.
type DelegationRegistry struct {
	Records []Delegation
	Bad     []storage.LineError
}

// ReadDelegations reads the registry under root. The last line per id wins; a missing
// file is an empty registry. Unusable lines are reported in Bad, never dropped silently.
func ReadDelegations(root string) (*DelegationRegistry, error) {
	recs, bad, err := storage.ReadRecords[Delegation](filepath.Join(root, filepath.FromSlash(DelegationFile)), validateDelegation)
	if err != nil {
		return nil, Errorf(tool.CodeIOError, "read %s: %w", DelegationFile, err)
	}
	pos := map[string]int{}
	reg := &DelegationRegistry{Records: []Delegation{}, Bad: bad}
	for _, r := range recs {
		if i, ok := pos[r.ID]; ok {
			reg.Records[i] = r
			continue
		}
		pos[r.ID] = len(reg.Records)
		reg.Records = append(reg.Records, r)
	}
	return reg, nil
}

// Warnings renders the skipped lines as "delegation-registry.jsonl line <k>: <reason>".
func (r *DelegationRegistry) Warnings() []string {
	out := make([]string, 0, len(r.Bad))
	for _, b := range r.Bad {
		out = append(out, b.Warning(filepath.Base(DelegationFile)))
	}
	return out
}

// Has reports whether a delegation id exists (for NewID's collision check).
func (r *DelegationRegistry) Has(id string) bool {
	for _, d := range r.Records {
		if d.ID == id {
			return true
		}
	}
	return false
}

// SortByDelegatedAt orders records by delegatedAt, then id (stable).
func SortByDelegatedAt(ds []Delegation) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].DelegatedAt != ds[j].DelegatedAt {
			return ds[i].DelegatedAt < ds[j].DelegatedAt
		}
		return ds[i].ID < ds[j].ID
	})
}

// AppendDelegations appends records (new delegations or updates of existing ids) to the
// registry under root with one write.
func AppendDelegations(root string, ds ...Delegation) error {
	recs := make([]any, len(ds))
	for i := range ds {
		recs[i] = ds[i]
	}
	if err := storage.AppendJSONL(filepath.Join(root, filepath.FromSlash(DelegationFile)), recs...); err != nil {
		return Errorf(tool.CodeIOError, "append %s: %w", DelegationFile, err)
	}
	return nil
}
