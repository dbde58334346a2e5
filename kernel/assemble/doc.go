// Package assemble builds a kernel from what a host has: its legacy command registry,
// its native registry, and the settings of the lanes that run them. It is where the
// kernel meets its lanes' packages, so that package kernel never does.
//
// [Kernel] is the one function hosts call. It describes the registries as the kernel's
// neutral tool descriptions (kernel.Source: name, aliases, domain, kind, and a spec
// function, a command's spec derived by the adapter with a panic turned into an error),
// gives the native registry's routes as the kernel's base routes, builds the four lanes
// from the packages that run them — adapter.Lane for the adapter and subprocess lanes,
// native.Lane (its calls' tool.Env from the kernel's LookupEnv, Config.Runtime and
// Config.Store), sandbox.Lane over Config.Sandbox — plugs in the shadow decorator
// (kernel.Config.Shadow: package kernel/shadow's runs over the kernel's state
// directory, unless the host plugs in its own), and hands all of it to kernel.New.
//
// Invariants:
//
//   - The kernel's configuration is embedded whole ([Config].Config): everything
//     kernel.New takes, Kernel passes on unchanged, adding only tools, base routes and
//     lanes, and the shadow runs where Config.Shadow is nil.
//   - A replacement lane ([Config].Lanes) takes the place of the default lane of its
//     name; an unknown name or a name given twice fails. The kernel's own
//     Config.Lanes is filled here and must be left empty.
//   - Legacy settings that are per call (adapter.Config.Dir, Stdin) fail: the lanes set
//     them from each call.
package assemble
