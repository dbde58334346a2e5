// Package cmdbridge serves the commands of an urfave/cli v2 program as governed tools —
// over the command line, HTTP, MCP and in-process — through one kernel that checks
// governance, scopes and policy and writes signed evidence. This package is the one line
// an adopter writes (docs/adopt.md):
//
//	app.Commands = append(app.Commands, cmdbridge.Command(nil))
//
// It is light on purpose: urfave/cli, the standard library and three small packages of
// this module, nothing at init but a copy of the environment. `yourprogram bridge …`
// execs the cmdbridge host (cmd/cmdbridge, found through $CMDBRIDGE_HOST or on $PATH),
// which reads the program's manifest (`yourprogram bridge __manifest`: its app's shape
// and the Config) and serves every leaf of the command tree as a tool named by its path
// (`notes add` → notes:add), each call running the program itself. Package host has the
// other entry points: host.Command (the same line, serving inside the program, with
// in-process and native lanes), host.Main (a standalone main) and host.Wrap (a program
// read from its help).
//
// Invariants:
//
//   - This package links none of the serving stack (kernel, surfaces, schemas, YAML,
//     net/http) and none of the developer tooling: TestAdoptionLinksNoDeveloperTooling.
//   - A program built with the line and served through the host derives the same tools
//     as the same Config given to host.Command: TestLightLineMatchesTheInProcessLine.
//   - The manifest holds no function and no secret: flag values that came from the
//     environment or a file are not recorded as defaults, and the host reads it with a
//     minimal environment in an empty directory.
//   - A leaf whose effect nobody declared ([Config.Effects]) is served as destructive:
//     the default policy asks before it runs. Only the program declares effects, never a
//     workspace's configuration.
package cmdbridge
