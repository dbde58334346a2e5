package broker

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/nats-io/jwt/v2"

	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// EnrollmentFile is where a workspace keeps its enrollment, inside its state directory
// (kernel/statedir): outside the work tree, shared by its worktrees.
const EnrollmentFile = "enrollment.json"

// Enrollment is the identity a control plane gave a workspace (or one of its phone
// devices): the subject of its enrollment token is the workspace of every subject the
// sidecar uses and the from of every event it publishes on the broker.
type Enrollment struct {
	Subject string `json:"subject"`
	// Token is the enrollment token as issued: signed with the control plane's key, which
	// the workspace does not hold, so the workspace only reads it and presents it in its
	// announcements; the control plane verifies it there.
	Token string `json:"token"`
	// Name is a human name for the subject (a device's owner), for the control plane's
	// device registry.
	Name string `json:"name,omitempty"`
	// Control is who the control plane is on this workspace: the caller its commands
	// and token-less calls run as (Config.Control). Nil: the workspace takes no
	// commands and no call without a token of its own minting.
	Control *ControlCaller `json:"control,omitempty"`
	// CommandKey is the public key commands must be signed with: the issuer of the NATS
	// credentials installed with the enrollment (InstallCreds). Empty: commands are not
	// checked for a signature (single-tenant).
	CommandKey string    `json:"command_key,omitempty"`
	ExpiresAt  time.Time `json:"expires_at"`
	EnrolledAt time.Time `json:"enrolled_at"`
}

// ControlCaller is the control plane as a caller of this workspace, configured here,
// on the workspace's side: the subject its commands and calls are recorded under and
// the scopes a token of that subject would carry. The control plane never sends a
// token for it; only its NATS user can publish on the workspace's command and tool
// subjects, and that is the whole of its authority.
type ControlCaller struct {
	// Subject is the caller's subject (the from of its commands; the kernel caller).
	Subject string `json:"subject"`
	// Tools are doublestar globs over the tools it may call (empty: none).
	Tools []string `json:"tools"`
	// Read and Write are path scopes, as a token's.
	Read  []string `json:"read,omitempty"`
	Write []string `json:"write,omitempty"`
	// Events are the channels it may address commands to, besides its own subject
	// (the workspace id, for the workspace's own agent to see them).
	Events []string `json:"events,omitempty"`
}

// Claims are c as the claims of a token that never expires: it is checked where it is
// configured, not presented.
func (c ControlCaller) Claims() token.Claims {
	return token.Claims{Subject: c.Subject, Tools: c.Tools, Read: c.Read, Write: c.Write, Events: c.Events,
		ExpiresAt: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), ID: "control-plane"}
}

// Validate checks the subject is a valid token subject.
func (c ControlCaller) Validate() error {
	if err := token.ValidateSubject(c.Subject); err != nil {
		return fmt.Errorf("control-plane caller: %w", err)
	}
	return nil
}

// Enroll checks an enrollment token's form — a cmdbridge token whose subject is
// <workspace_id> or <workspace_id>:phone:<device_id>, not expired at now — and installs it
// in stateDir with name and the control-plane caller (nil: none), replacing an earlier
// enrollment.
func Enroll(stateDir, tok, name string, control *ControlCaller, now time.Time) (Enrollment, error) {
	c, err := token.Unverified(tok)
	if err != nil {
		return Enrollment{}, fmt.Errorf("enroll: %w", err)
	}
	if !now.Before(c.Expires()) {
		return Enrollment{}, fmt.Errorf("enroll: the token expired at %s", c.Expires().UTC().Format(time.RFC3339))
	}
	if !isWorkspaceID(WorkspaceOf(c.Subject)) {
		return Enrollment{}, fmt.Errorf("enroll: subject %q: want <workspace_id> or <workspace_id>:phone:<device_id> (ids of letters, digits, '.', '_' and '-')", c.Subject)
	}
	if control != nil {
		if err := control.Validate(); err != nil {
			return Enrollment{}, fmt.Errorf("enroll: %w", err)
		}
	}
	e := Enrollment{Subject: c.Subject, Token: tok, Name: name, Control: control, ExpiresAt: c.Expires().UTC(), EnrolledAt: now.UTC()}
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return Enrollment{}, fmt.Errorf("enroll: %w", err)
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return Enrollment{}, fmt.Errorf("enroll: %w", err)
	}
	if err := writePrivate(filepath.Join(stateDir, EnrollmentFile), append(b, '\n')); err != nil {
		return Enrollment{}, fmt.Errorf("enroll: %w", err)
	}
	return e, nil
}

// CredsFile is where a workspace keeps the NATS credentials its control plane issued
// it (Issuer.WorkspaceCreds), inside its state directory; serve uses them when no
// other credentials are given.
const CredsFile = "nats.creds"

// InstallCreds checks that creds is a NATS credentials file issued for workspace ws
// ([IssuedCommandKey]) and installs it in stateDir (mode 0600), replacing an earlier one.
func InstallCreds(stateDir, ws string, creds []byte) error {
	if _, err := jwt.ParseDecoratedUserNKey(creds); err != nil {
		return fmt.Errorf("nats credentials: %w", err)
	}
	if _, issued, err := IssuedCommandKey(creds, ws); err != nil {
		return err
	} else if !issued {
		return fmt.Errorf("nats credentials: not workspace %q's (its publish permissions differ)", ws)
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return fmt.Errorf("nats credentials: %w", err)
	}
	if err := writePrivate(filepath.Join(stateDir, CredsFile), creds); err != nil {
		return fmt.Errorf("nats credentials: %w", err)
	}
	return nil
}

// IssuedCommandKey tells whether creds is a user a cmdbridge control plane issued for
// workspace ws — its publish permissions are exactly WorkspacePermissions(ws) — and,
// when it is, the key the workspace's commands must be signed with: the account that
// signed the user ([Issuer.CommandKey]).
func IssuedCommandKey(creds []byte, ws string) (key string, issued bool, err error) {
	tok, err := jwt.ParseDecoratedJWT(creds)
	if err != nil {
		return "", false, fmt.Errorf("nats credentials: %w", err)
	}
	uc, err := jwt.DecodeUserClaims(tok)
	if err != nil {
		return "", false, fmt.Errorf("nats credentials: %w", err)
	}
	if !slices.Equal([]string(uc.Permissions.Pub.Allow), WorkspacePermissions(ws).Publish) {
		return "", false, nil
	}
	if uc.IssuerAccount != "" {
		return uc.IssuerAccount, true, nil
	}
	return uc.Issuer, true, nil
}

// writePrivate writes b to path through a temporary file renamed over it, mode 0600.
func writePrivate(path string, b []byte) error {
	if err := os.WriteFile(path+".tmp", b, 0o600); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

// LoadEnrollment reads the enrollment of stateDir; ok is false when there is none.
func LoadEnrollment(stateDir string) (e Enrollment, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(stateDir, EnrollmentFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Enrollment{}, false, nil
	}
	if err != nil {
		return Enrollment{}, false, fmt.Errorf("enrollment: %w", err)
	}
	if err := json.Unmarshal(b, &e); err != nil {
		return Enrollment{}, false, fmt.Errorf("enrollment %s: %w", filepath.Join(stateDir, EnrollmentFile), err)
	}
	if err := token.ValidateSubject(e.Subject); err != nil {
		return Enrollment{}, false, fmt.Errorf("enrollment: %w", err)
	}
	return e, true, nil
}

// VerifyAnnouncement is the control plane's check of a workspace's announcement: its
// enrollment token verifies under key (the control plane's own) and names the subject
// the announcement claims. An announcement that fails it is not a workspace of this
// control plane.
func VerifyAnnouncement(key []byte, a Announcement, now time.Time) error {
	c, err := token.Verify(key, a.Enrollment, now)
	if err != nil {
		return fmt.Errorf("announcement of %q: enrollment token: %w", a.Subject, err)
	}
	if c.Subject != a.Subject || WorkspaceOf(c.Subject) != a.Workspace {
		return fmt.Errorf("announcement of %q (workspace %q): the enrollment token is for %q", a.Subject, a.Workspace, c.Subject)
	}
	return nil
}

// isWorkspaceID is token's id alphabet: the workspace id must be a plain id even when
// the subject is not a device's.
func isWorkspaceID(s string) bool {
	if s == "" || len(s) > 128 {
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
