package broker

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// Prefix is the first token of every subject cmdbridge uses.
const Prefix = "cmdbridge"

// Escape makes s one NATS subject token. Letters, digits, '-', '_' and ':' stay as
// they are (so kinds like agent-runtime:tool_called read naturally); every other byte,
// '%' included, becomes %XX. The empty string becomes "%", which no other input
// produces. The mapping is injective, so two workspaces never share a subject, and a
// token never contains '.', '*', '>' or whitespace, so no name can act as a wildcard.
func Escape(s string) string {
	if s == "" {
		return "%"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == ':':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// Unescape reverses Escape.
func Unescape(tok string) (string, error) {
	if tok == "%" {
		return "", nil
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '%' {
			b.WriteByte(tok[i])
			continue
		}
		if i+2 >= len(tok) {
			return "", fmt.Errorf("subject token %q: truncated escape", tok)
		}
		n, err := strconv.ParseUint(tok[i+1:i+3], 16, 8)
		if err != nil {
			return "", fmt.Errorf("subject token %q: bad escape: %w", tok, err)
		}
		b.WriteByte(byte(n))
		i += 2
	}
	return b.String(), nil
}

// WorkspaceOf is the workspace id of an enrolled subject: the subject itself, or the
// part before ":phone:" for a device.
func WorkspaceOf(subject string) string {
	ws, _, _ := strings.Cut(subject, token.PhoneMarker)
	return ws
}

// EventSubject is where an event of kind from workspace ws is published:
// cmdbridge.<ws>.events.<kind>.
func EventSubject(ws, kind string) string {
	return Prefix + "." + Escape(ws) + ".events." + Escape(kind)
}

// ToolSubject is where a call of tool name on workspace ws is requested:
// cmdbridge.<ws>.tools.<name>.
func ToolSubject(ws, name string) string {
	return Prefix + "." + Escape(ws) + ".tools." + Escape(name)
}

// CommandSubject is where conductor commands for workspace ws are published (into the
// command stream): cmdbridge.<ws>.commands.
func CommandSubject(ws string) string { return Prefix + "." + Escape(ws) + ".commands" }

// AnnounceSubject is where workspace ws announces itself and its tools:
// cmdbridge.<ws>.announce.
func AnnounceSubject(ws string) string { return Prefix + "." + Escape(ws) + ".announce" }

// DiscoverSubject is where a control plane asks every workspace to announce itself now.
// It has two tokens, so no workspace's subjects (three or more) can collide with it.
const DiscoverSubject = Prefix + ".discover"

// WorkspaceSubjects is the subject space workspace ws may use, and the only one its
// credentials should allow: cmdbridge.<ws>.> (docs/scale.md).
func WorkspaceSubjects(ws string) string { return Prefix + "." + Escape(ws) + ".>" }

// parseSubject splits cmdbridge.<ws>.<area>[.<name>] into its unescaped parts.
func parseSubject(subject string) (ws, area, name string, err error) {
	parts := strings.Split(subject, ".")
	if len(parts) < 3 || len(parts) > 4 || parts[0] != Prefix {
		return "", "", "", fmt.Errorf("subject %q is not cmdbridge.<workspace>.<area>[.<name>]", subject)
	}
	if ws, err = Unescape(parts[1]); err != nil {
		return "", "", "", err
	}
	if len(parts) == 4 {
		if name, err = Unescape(parts[3]); err != nil {
			return "", "", "", err
		}
	}
	return ws, parts[2], name, nil
}
