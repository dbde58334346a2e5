package delivery

import (
	"errors"
	"io/fs"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Source serves a workspace's parsed files from memory: a warm index a long-lived host
// keeps per workspace root (delivery/wsindex). [ReadWU], [ListWUs], [ListInitiatives] and
// [Workspace.Events], [Workspace.Memory] and [Workspace.Signals] ask it instead of the disk when Workspace.Source is set, and must get
// exactly what the disk would give them at that moment (same values, same errors): a
// Source validates what it serves on every call and never answers from stale data.
//
// The values it returns are shared with other calls and with the cache itself: they are
// read-only. A workspace with a Source is for reading tools; a tool that edits a WU or an
// initiative document opens its workspace without one.
type Source interface {
	// WU is ReadWU of id.
	WU(id string) (*WU, error)
	// WUs is ListWUs.
	WUs() ([]WUFile, error)
	// Initiatives is ListInitiatives.
	Initiatives() ([]*Initiative, error)
	// Events is LoadEvents of the workspace root.
	Events() (*EventLog, error)
	// Memory is LoadMemory of the workspace root.
	Memory() (*Memory, error)
	// Signals is LoadSignals of the workspace root.
	Signals() (*SignalStore, error)
}

// Events is the workspace's event log: LoadEvents of its root, or its Source's log.
func (w *Workspace) Events() (*EventLog, error) {
	if w.Source != nil {
		return w.Source.Events()
	}
	return LoadEvents(w.Root)
}

// Memory is the workspace's memory store: LoadMemory of its root, or its Source's store
// (shared: read it, clone a node before changing it).
func (w *Workspace) Memory() (*Memory, error) {
	if w.Source != nil {
		return w.Source.Memory()
	}
	return LoadMemory(w.Root)
}

// Signals is the workspace's signal store: LoadSignals of its root, or its Source's store
// (shared: read it).
func (w *Workspace) Signals() (*SignalStore, error) {
	if w.Source != nil {
		return w.Source.Signals()
	}
	return LoadSignals(w.Root)
}

// WUReadError is ReadWU's error for a WU file that could not be read: NOT_FOUND when it
// does not exist, IO_ERROR otherwise.
func WUReadError(id, rel string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return Errorf(tool.CodeNotFound, "%s not found (%s)", id, rel)
	}
	return Errorf(tool.CodeIOError, "read %s: %w", rel, err)
}

// WUDir and InitiativesDir are the root-relative slash directories of WU specs and
// initiatives ("." for the root itself), as ListWUs and ListInitiatives read them.
func (w *Workspace) WUDir() string { return cleanDir(w.Config.WUDir) }

// InitiativesDir: see WUDir.
func (w *Workspace) InitiativesDir() string { return cleanDir(w.Config.InitiativesDir) }

// WUFileID returns the WU id of a WU spec file name (WU-<n>.yaml) and whether it is one.
func WUFileID(name string) (string, bool) {
	if m := wuFileRe.FindStringSubmatch(name); m != nil {
		return m[1], true
	}
	return "", false
}

// InitiativeFileID returns the initiative id of an initiative file name (INIT-….yaml) and
// whether it is one.
func InitiativeFileID(name string) (string, bool) {
	if m := initFileRe.FindStringSubmatch(name); m != nil {
		return m[1], true
	}
	return "", false
}

// SortInitiatives sorts initiatives as ListInitiatives returns them: by the numeric part
// of the id, then by id.
func SortInitiatives(ins []*Initiative) {
	sortInitiatives(ins)
}
