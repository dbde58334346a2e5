// Package integration is the toolkit tested with the delivery corpus: the tests that
// are about cmdbridge on a real program at scale (all 82 commands and their native
// tools) rather than about one behaviour of one package, which each toolkit package
// tests on small fixtures of its own.
//
// It holds tests only. Here the whole corpus's tools/list meets the official MCP
// clients and each model provider's schema rules, its schemas map without a fallback,
// every command is scaffolded and compared with the adapter's view of it, and the
// command line runs the corpus's walkthroughs: the caller's subject on every lane, a
// WU's lifecycle across worktrees, a remote claim over NATS, parallel writers on two
// surfaces. It holds the corpus's parity proof: every script of testdata/script/parity
// on every lane with its ratchet (TestParityScripts, spread over child processes), and
// every read-only tool run on every lane without writing a byte. The kernel meets the
// corpus's tools here: every property of every schema reaches its lane, the rules,
// texts, value forms and schemas of all 91 tools, and the red-team attacks through
// them (no path input reaches the state directory or .git by any spelling or link, a
// gate cannot read the keys or leave a daemon, the default policy asks before workspace
// code). Its test binary is also the corpus's MCP stdio server and sandbox runner.
//
// Invariants: no toolkit package's tests import the corpus outside this package (the
// root package's TestToolkitTestsImportNoCorpus); nothing imports this package.
package integration
