// Package mcphost writes, removes and reads the MCP server entries of desktop and IDE
// hosts (Claude, VS Code, Cursor), so one command wires a cmdbridge workspace into a
// host.
//
// [Locate] maps a host and a scope to its configuration file, from the environment it is
// handed (HOME, XDG_CONFIG_HOME) and the project directory:
//
//	claude          project  <project>/.mcp.json                                 mcpServers (Claude Code)
//	claude          user     $HOME/.claude.json                                  mcpServers (Claude Code)
//	claude-desktop  user     $XDG_CONFIG_HOME/Claude/claude_desktop_config.json  mcpServers (Claude Desktop)
//	vscode          project  <project>/.vscode/mcp.json                          servers, type "stdio"
//	vscode          user     $XDG_CONFIG_HOME/Code/User/mcp.json                 servers, type "stdio"
//	cursor          project  <project>/.cursor/mcp.json                          mcpServers
//	cursor          user     $HOME/.cursor/mcp.json                              mcpServers
//
// XDG_CONFIG_HOME defaults to $HOME/.config. The project scope is the default (Claude
// Desktop has none). A project-scope file is committed and shared, so its entries name
// the project in the host's own variables ([Target.ProjectRef]: ${workspaceFolder} for
// VS Code and Cursor, ${CLAUDE_PROJECT_DIR:-.} for Claude Code), never an absolute path
// of this machine; the caller (surface/cli) writes them so.
//
// [Enable] sets one named entry (command and args, plus type for VS Code), [Disable]
// removes entries, [Entries] reads them.
//
// Invariants:
//
//   - Everything in the file other than the entry being set or removed is kept: unknown
//     top-level keys, other servers, unknown keys inside our own entry, and the order of
//     keys. The file is written back as JSON indented with two spaces; a JSONC file
//     (comments or trailing commas, as VS Code writes) is edited in place instead: only
//     the bytes of the entry set or removed change (a // comment on the rest of a
//     removed entry's line goes with it), comments and layout elsewhere stay, and
//     [Disable] never removes such a file.
//   - A change that would leave the file as it is writes nothing (idempotent), and the
//     result says so.
//   - [Disable] that leaves the file holding nothing else (as a file Enable created
//     holds) removes the file, and a .vscode or .cursor directory it leaves empty.
//   - Before a file is changed its previous content is copied to <file>.bak (replacing an
//     older backup); the new content is written to a temporary file in the same directory
//     and renamed over the file, so a reader sees the old file or the new one, never a
//     mix. A file that did not exist gets no backup.
//   - A file that is not a JSON object, or whose servers key is not an object, is an
//     error and is left untouched. An empty file counts as {}.
//   - An entry of the same name that launches another program is never overwritten or
//     removed.
package mcphost
