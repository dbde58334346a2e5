// Package config holds the legacy workspace.yaml commands of corpus §3.3 (config:get,
// config:set), one file per command.
//
// Every command file reads top-down in the same order: registration, flag table and
// constructor (newXApp), action, output types. The commands follow corpus §2 through
// commands/convention and keep their domain logic in package delivery/ops.
//
// Invariants:
//
//   - config:get never writes anything (spec "RO"); config:set commits only
//     workspace.yaml.
package config
