package evidence

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// ErrTampered is wrapped by every error that says the log was changed by someone
// without the key: a line that does not authenticate, a record out of the chain, a
// file shorter than what this log or a signed checkpoint knows it held.
var ErrTampered = errors.New("evidence log tampered with")

// keys are what a log derives from its signing key: the note signer of checkpoints,
// the matching verifier, and the key of the records' MACs. Every process of the
// workspace reads the same signing.key, so a sibling's records authenticate too.
type keys struct {
	signer   note.Signer
	verifier note.Verifier
	// vkey is the verifier key's text (what verifier.key should hold).
	vkey string
	mac  []byte
}

// keysOf parses a note signer key and derives the rest from it: the verifier is
// computed from the private key, never read from verifier.key, which anyone may
// replace.
func keysOf(skey string) (keys, error) {
	skey = strings.TrimSpace(skey)
	signer, err := note.NewSigner(skey)
	if err != nil {
		return keys{}, fmt.Errorf("signing key: %w", err)
	}
	// PRIVATE+KEY+<name>+<hash>+<base64(alg, seed)>: the verifier key is
	// <name>+<hash>+<base64(alg, public key)>. A name holds no '+'; the key data may.
	parts := strings.SplitN(strings.TrimPrefix(skey, "PRIVATE+KEY+"), "+", 3)
	if len(parts) != 3 {
		return keys{}, errors.New("signing key: not a note signer key")
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 1+ed25519.SeedSize {
		return keys{}, errors.New("signing key: not an Ed25519 note key")
	}
	pub := ed25519.NewKeyFromSeed(raw[1:]).Public().(ed25519.PublicKey)
	vkey := parts[0] + "+" + parts[1] + "+" + base64.StdEncoding.EncodeToString(append([]byte{raw[0]}, pub...))
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		return keys{}, fmt.Errorf("signing key: derived verifier: %w", err)
	}
	mac := sha256.Sum256([]byte("cmdbridge evidence record MAC\n" + skey))
	return keys{signer: signer, verifier: verifier, vkey: vkey, mac: mac[:]}, nil
}

// recordMAC is a record's authenticator: HMAC-SHA256 of its tlog record hash (which
// covers its content, seq and prev_hash) under the log's MAC key. m is reused.
func recordMAC(m hash.Hash, leaf tlog.Hash) string {
	m.Reset()
	m.Write(leaf[:])
	var sum [sha256.Size]byte
	return hex.EncodeToString(m.Sum(sum[:0]))
}

func newMAC(k keys) hash.Hash { return hmac.New(sha256.New, k.mac) }

// macOK compares a stored MAC in constant time.
func macOK(m hash.Hash, leaf tlog.Hash, stored string) bool {
	return stored != "" && hmac.Equal([]byte(recordMAC(m, leaf)), []byte(stored))
}

// Checkpoint is one signed tree head: the first N records' tree hash, signed as a note.
// In checkpoints.jsonl and the witness file it has N, Root and Note; when it is
// published (Config.OnCheckpoint) it also carries the verifier key and a consistency
// proof from the head the same log published before, so that a keeper of heads (the
// control plane) can check that the log only grew.
type Checkpoint struct {
	N    int64  `json:"n"`
	Root string `json:"root"`
	Note string `json:"note"`
	// Verifier is the note verifier key of the log (published heads only).
	Verifier string `json:"verifier,omitempty"`
	// PrevN is the size of the head published before this one by the same log, and
	// Proof the tlog consistency proof from it to this head (hex hashes).
	PrevN int64    `json:"prev_n,omitempty"`
	Proof []string `json:"proof,omitempty"`
}

// Tree opens the checkpoint's note with verifier and returns the tree head it signs.
// It fails when the signature does not verify or the note does not say N and Root.
func (c Checkpoint) Tree(verifier note.Verifier) (tlog.Tree, error) {
	n, err := note.Open([]byte(c.Note), note.VerifierList(verifier))
	if err != nil {
		return tlog.Tree{}, fmt.Errorf("checkpoint at %d: %w", c.N, err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) != 4 || lines[0] != checkpointOrigin || lines[1] != strconv.FormatInt(c.N, 10) || lines[2] != c.Root || lines[3] != "" {
		return tlog.Tree{}, fmt.Errorf("checkpoint at %d: the signed text does not say %d records with root %s", c.N, c.N, c.Root)
	}
	root, err := parseHash(c.Root)
	if err != nil {
		return tlog.Tree{}, fmt.Errorf("checkpoint at %d: %w", c.N, err)
	}
	return tlog.Tree{N: c.N, Hash: root}, nil
}

// CheckConsistency checks the published proof of next against an earlier head of the
// same log (next.PrevN must be older.N): the log of next is the log of older, grown.
func CheckConsistency(older, newer tlog.Tree, proof []string) error {
	p := make(tlog.TreeProof, len(proof))
	for i, s := range proof {
		h, err := parseHash(s)
		if err != nil {
			return fmt.Errorf("consistency proof: %w", err)
		}
		p[i] = h
	}
	if err := tlog.CheckTree(p, newer.N, newer.Hash, older.N, older.Hash); err != nil {
		return fmt.Errorf("head %d is not an extension of head %d: %w", newer.N, older.N, err)
	}
	return nil
}

func parseHash(s string) (tlog.Hash, error) {
	var h tlog.Hash
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("hash %q is not 32 hex bytes", s)
	}
	copy(h[:], b)
	return h, nil
}

func hexes(hs []tlog.Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = hex.EncodeToString(h[:])
	}
	return out
}
