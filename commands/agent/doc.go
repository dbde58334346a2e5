// Package agent holds the agent session and incident commands (agent:*), corpus §3.6, of the delivery legacy corpus.
//
// Each command is one file in the legacy style (see package convention): a constructor
// returning a fresh *cli.App, an action, and its output; it registers itself with
// commands.Register from init. Domain logic lives in package delivery.
package agent
