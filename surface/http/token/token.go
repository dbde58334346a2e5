package token

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

// Version is the tag every token starts with.
const Version = "cb1"

// Errors Verify returns; callers answer all of them the same way (401) and may log which.
var (
	ErrMalformed = errors.New("token: malformed")
	ErrSignature = errors.New("token: bad signature")
	ErrExpired   = errors.New("token: expired")
	// ErrNotYetValid: the token's iat or nbf is later than the verifier's clock plus
	// MaxClockSkew.
	ErrNotYetValid = errors.New("token: not yet valid")
)

// MaxClockSkew is how far a token's iat and nbf may lie ahead of the verifier's clock:
// a token minted on a machine whose clock is a little fast still verifies, one dated
// further ahead (a token minted to become valid later, or with a forged clock) does not.
const MaxClockSkew = time.Minute

// Claims is what a token asserts about its bearer.
type Claims struct {
	// Subject is who calls: the `from` of events and the kernel caller's subject.
	Subject string `json:"sub"`
	// Tools are doublestar globs over canonical tool names (wu:*, git:status, *).
	Tools []string `json:"tools"`
	// Read and Write are path scopes, absolute or relative to the workspace.
	Read  []string `json:"read,omitempty"`
	Write []string `json:"write,omitempty"`
	// Events are doublestar globs over the subjects whose events the token may watch
	// and acknowledge, besides its own (an operator's control plane: "*"; one
	// workspace and its devices: "ws-1", "ws-1:**"). Empty: its own subject only.
	Events []string `json:"events,omitempty"`
	// IssuedAt, NotBefore and ExpiresAt are Unix seconds; NotBefore is optional (0:
	// none). A token is valid from the later of IssuedAt and NotBefore, less
	// MaxClockSkew, until ExpiresAt.
	IssuedAt  int64 `json:"iat"`
	NotBefore int64 `json:"nbf,omitempty"`
	ExpiresAt int64 `json:"exp"`
	// ID is a random token id, unique per minted token.
	ID string `json:"jti"`
}

// Expires returns the expiry as a time.
func (c Claims) Expires() time.Time { return time.Unix(c.ExpiresAt, 0) }

// Sees reports whether the token's tool globs match the canonical tool name.
func (c Claims) Sees(name string) bool {
	for _, g := range c.Tools {
		if ok, err := doublestar.Match(g, name); err == nil && ok {
			return true
		}
	}
	return false
}

// SeesEventsOf reports whether the token may watch and acknowledge the events of subject
// (an event's from or channel): its own subject, or one its event globs match.
func (c Claims) SeesEventsOf(subject string) bool {
	if subject == c.Subject {
		return true
	}
	for _, g := range c.Events {
		if ok, err := doublestar.Match(g, subject); err == nil && ok {
			return true
		}
	}
	return false
}

// Check reports what makes claims unusable: a bad subject, a bad glob, no expiry.
func (c Claims) Check() error {
	if err := ValidateSubject(c.Subject); err != nil {
		return err
	}
	for _, g := range c.Tools {
		if !doublestar.ValidatePattern(g) {
			return fmt.Errorf("token: tool glob %q is not a valid pattern", g)
		}
	}
	for _, g := range c.Events {
		if !doublestar.ValidatePattern(g) {
			return fmt.Errorf("token: event glob %q is not a valid pattern", g)
		}
	}
	if c.ExpiresAt == 0 {
		return errors.New("token: no expiry")
	}
	if c.ExpiresAt < c.IssuedAt || c.ExpiresAt < c.NotBefore {
		return errors.New("token: expires before it is issued or valid")
	}
	return nil
}

// MintOptions are the inputs of Mint besides the key.
type MintOptions struct {
	Subject     string
	Tools       []string
	Read, Write []string
	// Events are the subjects (globs) whose events the token may watch besides its own.
	Events []string
	TTL    time.Duration
	// Now is the issue time (zero: time.Now).
	Now time.Time
}

// Mint signs a new token and returns it with its claims.
func Mint(key []byte, o MintOptions) (string, Claims, error) {
	if len(key) < 16 {
		return "", Claims{}, errors.New("token: key shorter than 16 bytes")
	}
	if o.TTL <= 0 {
		return "", Claims{}, fmt.Errorf("token: ttl %s is not positive", o.TTL)
	}
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	var id [12]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", Claims{}, fmt.Errorf("token: id: %w", err)
	}
	c := Claims{
		Subject: o.Subject, Tools: o.Tools, Read: o.Read, Write: o.Write, Events: o.Events,
		IssuedAt: now.Unix(), ExpiresAt: now.Add(o.TTL).Unix(), ID: hex.EncodeToString(id[:]),
	}
	if c.Tools == nil {
		c.Tools = []string{}
	}
	if err := c.Check(); err != nil {
		return "", Claims{}, err
	}
	body, err := json.Marshal(c)
	if err != nil {
		return "", Claims{}, fmt.Errorf("token: claims: %w", err)
	}
	head := Version + "." + base64.RawURLEncoding.EncodeToString(body)
	return head + "." + base64.RawURLEncoding.EncodeToString(sign(key, head)), c, nil
}

// Verify checks tok's signature under key and its expiry at now, and returns its claims.
func Verify(key []byte, tok string, now time.Time) (Claims, error) {
	head, sig, ok := cutLast(tok)
	if !ok || !strings.HasPrefix(head, Version+".") {
		return Claims{}, ErrMalformed
	}
	// Strict: the unused low bits of the last character must be zero, so each token has
	// exactly one accepted spelling (a lenient decoder takes four spellings of every
	// signature).
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil {
		return Claims{}, ErrMalformed
	}
	if !hmac.Equal(got, sign(key, head)) {
		return Claims{}, ErrSignature
	}
	c, err := decodeClaims(head)
	if err != nil {
		return Claims{}, err
	}
	if !now.Before(c.Expires()) {
		return Claims{}, ErrExpired
	}
	if latest := now.Add(MaxClockSkew).Unix(); c.IssuedAt > latest || c.NotBefore > latest {
		return Claims{}, ErrNotYetValid
	}
	return c, nil
}

// decodeClaims decodes and checks the claims of a token's head ("cb1.<claims>"). A
// claims object that names a member twice is malformed: encoding/json would keep the
// last value (and matches names regardless of case), so a signer and a verifier that
// read duplicates differently could disagree about what the token grants.
func decodeClaims(head string) (Claims, error) {
	body, err := base64.RawURLEncoding.Strict().DecodeString(head[len(Version)+1:])
	if err != nil {
		return Claims{}, ErrMalformed
	}
	if err := checkUniqueKeys(body); err != nil {
		return Claims{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	var c Claims
	if err := json.Unmarshal(body, &c); err != nil {
		return Claims{}, ErrMalformed
	}
	if err := c.Check(); err != nil {
		return Claims{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return c, nil
}

// checkUniqueKeys refuses JSON in which an object, at any depth, has two members whose
// names are equal under Unicode case folding (encoding/json's matching rule).
func checkUniqueKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func() error
	walk = func() error {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				name := strings.ToLower(k.(string))
				if seen[name] {
					return fmt.Errorf("claim %q appears twice", k)
				}
				seen[name] = true
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token() // '}'
			return err
		case json.Delim('['):
			for dec.More() {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token() // ']'
			return err
		}
		return nil
	}
	if err := walk(); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the claims")
	}
	return nil
}

func sign(key []byte, head string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(head))
	return m.Sum(nil)
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// PhoneMarker separates a workspace id from a device id in a phone subject.
const PhoneMarker = ":phone:"

// ValidateSubject accepts any non-empty printable subject of at most 256 bytes. A subject
// containing ":phone:" must be the conductor's device form <workspace_id>:phone:<device_id>,
// both ids non-empty and made of letters, digits, '.', '_' and '-'.
func ValidateSubject(s string) error {
	if s == "" {
		return errors.New("token: empty subject")
	}
	if len(s) > 256 {
		return errors.New("token: subject longer than 256 bytes")
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\uFFFD' {
			return fmt.Errorf("token: subject %q has a control or invalid character", s)
		}
	}
	if !strings.Contains(s, PhoneMarker) {
		return nil
	}
	ws, device, _ := strings.Cut(s, PhoneMarker)
	if !isID(ws) || !isID(device) {
		return fmt.Errorf("token: subject %q: want <workspace_id>:phone:<device_id>", s)
	}
	return nil
}

func isID(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
		default:
			return false
		}
	}
	return true
}

// Unverified returns a well-formed token's claims without checking its signature or
// expiry: for a token signed with a key this process does not hold, such as an
// enrollment token a control plane issued (the control plane verifies it when the
// workspace presents it). Never use it to authorise anything.
func Unverified(tok string) (Claims, error) {
	head, _, ok := cutLast(tok)
	if !ok || !strings.HasPrefix(head, Version+".") {
		return Claims{}, ErrMalformed
	}
	return decodeClaims(head)
}
