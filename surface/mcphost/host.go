package mcphost

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Hosts are the hosts Locate knows, in the order List reports them.
var Hosts = []string{"claude", "claude-desktop", "vscode", "cursor"}

// Scopes are the scopes host has: claude-desktop has only a user file.
func Scopes(host string) []string {
	if host == "claude-desktop" {
		return []string{ScopeUser}
	}
	return []string{ScopeProject, ScopeUser}
}

// Project directory references, in each host's own variables: what a project-scope
// entry names the project by, so the file works in every clone. VS Code and Cursor
// expand ${workspaceFolder}; Claude Code expands ${VAR} and ${VAR:-default} (an unset
// CLAUDE_PROJECT_DIR leaves ".", the directory Claude Code starts project servers in).
const (
	WorkspaceFolder  = "${workspaceFolder}"
	ClaudeProjectDir = "${CLAUDE_PROJECT_DIR:-.}"
)

// Scopes a host's configuration can have: the project (a file in the repository) or the
// user (a file under the home directory).
const (
	ScopeProject = "project"
	ScopeUser    = "user"
)

// Target is one host configuration file.
type Target struct {
	Host  string `json:"host"`
	Scope string `json:"scope"`
	// App names the program that reads the file ("Claude Code", "Claude Desktop", …).
	App  string `json:"app"`
	Path string `json:"path"`
	// Key is the top-level key holding the servers: "mcpServers" or "servers".
	Key string `json:"key"`
	// Type is the "type" every entry carries in this file ("stdio"), or "" for none.
	Type string `json:"-"`
	// ProjectRef names the project directory in the host's own variables in a
	// project-scope file (WorkspaceFolder, ClaudeProjectDir); "" in a user-scope file,
	// which is this machine's and takes absolute paths.
	ProjectRef string `json:"-"`
}

// Locate returns the configuration file of host at scope ("" means project). lookup reads
// HOME and XDG_CONFIG_HOME; project is the project directory (the workspace).
func Locate(host, scope string, lookup func(string) (string, bool), project string) (Target, error) {
	if scope == "" {
		scope = ScopeProject
	}
	if scope != ScopeProject && scope != ScopeUser {
		return Target{}, fmt.Errorf("scope %q: use project or user", scope)
	}
	if !slices.Contains(Hosts, host) {
		return Target{}, fmt.Errorf("unknown host %q (known: %s)", host, strings.Join(Hosts, ", "))
	}
	if !slices.Contains(Scopes(host), scope) {
		return Target{}, fmt.Errorf("%s has no %s scope (scopes: %s)", host, scope, strings.Join(Scopes(host), ", "))
	}
	home, config := "", ""
	if scope == ScopeUser {
		h, ok := lookup("HOME")
		if !ok || h == "" {
			return Target{}, errors.New("HOME is not set")
		}
		if !filepath.IsAbs(h) {
			return Target{}, fmt.Errorf("HOME %q is not an absolute path", h)
		}
		home = h
		config = filepath.Join(home, ".config")
		if x, ok := lookup("XDG_CONFIG_HOME"); ok && filepath.IsAbs(x) {
			config = x // the XDG spec ignores a relative value
		}
	} else if !filepath.IsAbs(project) {
		return Target{}, fmt.Errorf("project directory %q is not an absolute path", project)
	}
	t := Target{Host: host, Scope: scope, Key: "mcpServers"}
	switch host + " " + scope {
	case "claude project":
		t.App, t.Path = "Claude Code", filepath.Join(project, ".mcp.json")
	case "claude user":
		t.App, t.Path = "Claude Code", filepath.Join(home, ".claude.json")
	case "claude-desktop user":
		t.App, t.Path = "Claude Desktop", filepath.Join(config, "Claude", "claude_desktop_config.json")
	case "vscode project":
		t.App, t.Path = "VS Code", filepath.Join(project, ".vscode", "mcp.json")
	case "vscode user":
		t.App, t.Path = "VS Code", filepath.Join(config, "Code", "User", "mcp.json")
	case "cursor project":
		t.App, t.Path = "Cursor", filepath.Join(project, ".cursor", "mcp.json")
	case "cursor user":
		t.App, t.Path = "Cursor", filepath.Join(home, ".cursor", "mcp.json")
	}
	if host == "vscode" {
		t.Key, t.Type = "servers", "stdio"
	}
	if scope == ScopeProject {
		t.ProjectRef = WorkspaceFolder
		if host == "claude" {
			t.ProjectRef = ClaudeProjectDir
		}
	}
	return t, nil
}

// Entry is the part of a server entry mcphost manages.
type Entry struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// Server is one entry read from a file.
type Server struct {
	Name    string   `json:"name"`
	Type    string   `json:"type,omitempty"`
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	// URL is set for remote (HTTP) servers, which have no command.
	URL string `json:"url,omitempty"`
}

// Actions a Change reports.
const (
	Added     = "added"
	Updated   = "updated"
	Unchanged = "unchanged"
	Removed   = "removed"
	Absent    = "absent"
)

// Change is what Enable or Disable did to one file.
type Change struct {
	Target Target `json:"target"`
	// Action is Added, Updated or Unchanged (Enable), Removed or Absent (Disable).
	Action string   `json:"action"`
	Names  []string `json:"names,omitempty"`
	// Backup is the copy of the previous file, "" when nothing was written or the file
	// did not exist before.
	Backup string `json:"backup,omitempty"`
	// FileRemoved says Disable removed the whole file: it held nothing but the removed
	// entries (as a file Enable created does).
	FileRemoved bool `json:"file_removed,omitempty"`
}

// ForeignError is returned when an entry of the requested name launches another
// program than the one being installed.
type ForeignError struct {
	Target  Target
	Name    string
	Command string
}

func (e *ForeignError) Error() string {
	return fmt.Sprintf("%s: server %q already launches %s, another program; choose another --name", e.Target.Path, e.Name, e.Command)
}

// SameProgram reports whether two commands name the same program: equal paths, or the
// same file name (the binary was rebuilt or moved).
func SameProgram(a, b string) bool {
	return a == b || filepath.Base(a) == filepath.Base(b)
}

// Entries reads the servers of t's file; a missing file has none.
func Entries(t Target) ([]Server, error) {
	f, err := load(t)
	if err != nil {
		return nil, err
	}
	out := make([]Server, 0, len(f.servers))
	for _, m := range f.servers {
		s := Server{Name: m.key}
		_ = json.Unmarshal(m.value, &s) // a server of unexpected shape is listed by name
		s.Name = m.key
		out = append(out, s)
	}
	return out, nil
}

// Enable sets the server name in t's file to launch e, keeping everything else.
func Enable(t Target, name string, e Entry) (Change, error) {
	ch := Change{Target: t, Names: []string{name}}
	if name == "" {
		return ch, errors.New("server name is empty")
	}
	if e.Command == "" {
		return ch, errors.New("server command is empty")
	}
	if e.Args == nil {
		e.Args = []string{}
	}
	f, err := load(t)
	if err != nil {
		return ch, err
	}
	entry := object{}
	ch.Action = Added
	if raw, ok := f.servers.get(name); ok {
		if entry, err = parseObject(raw); err != nil {
			return ch, fmt.Errorf("%s: server %q: %w", t.Path, name, err)
		}
		var cur struct {
			Type    string   `json:"type"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}
		_ = json.Unmarshal(raw, &cur) // odd shapes compare unequal and are replaced
		if cur.Command != "" && !SameProgram(cur.Command, e.Command) {
			return ch, &ForeignError{Target: t, Name: name, Command: cur.Command}
		}
		if cur.Command == e.Command && slices.Equal(cur.Args, e.Args) && cur.Type == t.Type {
			ch.Action = Unchanged
			return ch, nil
		}
		ch.Action = Updated
	}
	if t.Type != "" {
		entry.set("type", mustRaw(t.Type))
	}
	entry.set("command", mustRaw(e.Command))
	entry.set("args", mustRaw(e.Args))
	if f.jsonc {
		doc, err := parseJSONC(f.old)
		if err != nil {
			return ch, fmt.Errorf("%s: %w", t.Path, err)
		}
		data, err := doc.set(t.Key, name, entry.raw())
		if err != nil {
			return ch, fmt.Errorf("%s: %w", t.Path, err)
		}
		ch.Backup, err = f.write(t, data)
		return ch, err
	}
	f.servers.set(name, entry.raw())
	ch.Backup, err = f.save(t)
	return ch, err
}

// Disable removes the named servers from t's file. Names that are not there are
// ignored; when none is, nothing is written and the action is Absent.
func Disable(t Target, names []string) (Change, error) {
	ch := Change{Target: t, Action: Absent}
	f, err := load(t)
	if err != nil || f.old == nil {
		return ch, err
	}
	for _, name := range names {
		if f.servers.del(name) {
			ch.Names = append(ch.Names, name)
		}
	}
	if len(ch.Names) == 0 {
		return ch, nil
	}
	ch.Action = Removed
	if f.jsonc {
		// Comments are the user's: the file stays, whatever is left in it.
		doc, err := parseJSONC(f.old)
		if err != nil {
			return ch, fmt.Errorf("%s: %w", t.Path, err)
		}
		data, err := doc.remove(t.Key, ch.Names)
		if err != nil {
			return ch, fmt.Errorf("%s: %w", t.Path, err)
		}
		ch.Backup, err = f.write(t, data)
		return ch, err
	}
	if len(f.servers) == 0 && len(f.root) <= 1 {
		// Nothing but our entries was in the file, as when Enable created it: remove the
		// file (and a project directory it leaves empty) rather than keep an empty
		// shell and a backup of our own entry.
		ch.FileRemoved = true
		if err := os.Remove(t.Path); err != nil {
			return ch, err
		}
		if dir := filepath.Dir(t.Path); t.Scope == ScopeProject && strings.HasPrefix(filepath.Base(dir), ".") {
			_ = os.Remove(dir) // .vscode or .cursor, and only when empty; never the project itself
		}
		return ch, nil
	}
	ch.Backup, err = f.save(t)
	return ch, err
}

// hostFile is one configuration file as read.
type hostFile struct {
	root    object
	servers object
	old     []byte // the content read; nil when the file did not exist
	mode    fs.FileMode
	// jsonc says the file has comments or trailing commas: it is edited in place.
	jsonc bool
}

// load reads t's file; a missing file is empty.
func load(t Target) (hostFile, error) {
	f := hostFile{root: object{}, servers: object{}, mode: 0o644}
	data, err := os.ReadFile(t.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	st, err := os.Stat(t.Path)
	if err != nil {
		return f, err
	}
	f.old, f.mode = data, st.Mode().Perm()
	_, clean, jsonc, err := stripJSONC(data)
	if err != nil {
		return f, fmt.Errorf("%s is not a JSON object we can edit (left untouched): %w", t.Path, err)
	}
	f.jsonc = jsonc
	if f.root, err = parseObject(clean); err != nil {
		return f, fmt.Errorf("%s is not a JSON object we can edit (left untouched): %w", t.Path, err)
	}
	if raw, ok := f.root.get(t.Key); ok && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		if f.servers, err = parseObject(raw); err != nil {
			return f, fmt.Errorf("%s: %q is not an object (left untouched): %w", t.Path, t.Key, err)
		}
	}
	return f, nil
}

// save writes the servers back into the file: the previous content to <path>.bak first
// (when there was a file), then the new content atomically.
func (f hostFile) save(t Target) (string, error) {
	f.root.set(t.Key, f.servers.raw())
	data, err := f.root.file()
	if err != nil {
		return "", fmt.Errorf("%s: %w", t.Path, err)
	}
	return f.write(t, data)
}

// write replaces the file with data: the previous content to <path>.bak first (when
// there was a file), then data atomically.
func (f hostFile) write(t Target, data []byte) (string, error) {
	backup := ""
	if f.old != nil {
		backup = t.Path + ".bak"
		if err := writeAtomic(backup, f.old, f.mode); err != nil {
			return "", fmt.Errorf("backup of %s: %w", t.Path, err)
		}
	} else if err := os.MkdirAll(filepath.Dir(t.Path), 0o755); err != nil {
		return "", err
	}
	if err := writeAtomic(t.Path, data, f.mode); err != nil {
		return "", err
	}
	return backup, nil
}

// writeAtomic writes data to a temporary file next to path and renames it over path.
func writeAtomic(path string, data []byte, mode fs.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
