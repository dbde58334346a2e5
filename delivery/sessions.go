package delivery

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Session is .lumenflow/sessions/current.json (corpus §1.13), keys in the spec's order.
type Session struct {
	SessionID       string   `json:"session_id"`
	WUID            string   `json:"wu_id"`
	Lane            string   `json:"lane"`
	Started         string   `json:"started"`
	AgentType       string   `json:"agent_type"`
	ClientType      string   `json:"client_type"`
	Capabilities    []string `json:"capabilities"`
	AgentVersion    string   `json:"agent_version"`
	HostID          string   `json:"host_id"`
	ContextTier     int      `json:"context_tier"`
	IncidentsLogged int      `json:"incidents_logged"`
	IncidentsMajor  int      `json:"incidents_major"`
}

// SessionPath is the absolute current-session file under root.
func SessionPath(root string) string { return filepath.Join(root, filepath.FromSlash(SessionFile)) }

// ReadSession returns the active session, or nil (and no error) when there is none. A file
// that is not a session object is a VALIDATION error.
func ReadSession(root string) (*Session, error) {
	data, err := os.ReadFile(SessionPath(root))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, Errorf(tool.CodeIOError, "read %s: %w", SessionFile, err)
	}
	var s Session
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, Errorf(tool.CodeValidation, "%s: %s", SessionFile, storage.JSONReason(err))
	}
	return &s, nil
}

// WriteSession writes s as 2-space JSON with a final newline, atomically.
func WriteSession(root string, s *Session) error {
	if s.Capabilities == nil {
		s.Capabilities = []string{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return Errorf(tool.CodeInternal, "encode session: %w", err)
	}
	if err := storage.WriteFileAtomic(SessionPath(root), b.Bytes(), 0o644); err != nil {
		return Errorf(tool.CodeIOError, "write %s: %w", SessionFile, err)
	}
	return nil
}

// RemoveSession deletes the current-session file; it reports whether one existed.
func RemoveSession(root string) (bool, error) {
	if err := storage.JournalWrite(SessionPath(root)); err != nil {
		return false, err
	}
	err := os.Remove(SessionPath(root))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, Errorf(tool.CodeIOError, "remove %s: %w", SessionFile, err)
	}
	return true, nil
}
