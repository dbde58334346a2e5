// Package workspace holds the workspace commands (workspace:init, doctor, backlog:status), corpus §3.8, of the delivery legacy corpus.
//
// Each command is one file in the legacy style (see package convention): a constructor
// returning a fresh *cli.App, an action, and its output; it registers itself with
// commands.Register from init. Domain logic lives in package delivery.
//
// doctor runs its checks in spec order (workspace, software_delivery, directories, git,
// git_identity, lanes, lane_locks, gates, gitignore, event_log, and wus with --deep, which
// applies delivery.ValidateWUs). It never writes and never runs git init. Without a
// workspace (or with a workspace.yaml that does not parse) it still answers: the
// workspace check is an error and only the git checks, run on the start directory,
// follow. Any error check fails the run with CHECK_FAILED and the full report as data.
package workspace
