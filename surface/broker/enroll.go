package broker

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

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
	Name       string    `json:"name,omitempty"`
	ExpiresAt  time.Time `json:"expires_at"`
	EnrolledAt time.Time `json:"enrolled_at"`
}

// Enroll checks an enrollment token's form — a cmdbridge token whose subject is
// <workspace_id> or <workspace_id>:phone:<device_id>, not expired at now — and installs it
// in stateDir, replacing an earlier enrollment.
func Enroll(stateDir, tok, name string, now time.Time) (Enrollment, error) {
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
	e := Enrollment{Subject: c.Subject, Token: tok, Name: name, ExpiresAt: c.Expires().UTC(), EnrolledAt: now.UTC()}
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return Enrollment{}, fmt.Errorf("enroll: %w", err)
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return Enrollment{}, fmt.Errorf("enroll: %w", err)
	}
	path := filepath.Join(stateDir, EnrollmentFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return Enrollment{}, fmt.Errorf("enroll: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return Enrollment{}, fmt.Errorf("enroll: %w", err)
	}
	return e, nil
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
