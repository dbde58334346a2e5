// Package all links every domain package of the legacy corpus into a binary: importing
// it registers every command in commands.Default. cmd/delivery, the adapter's hosts and
// the testscript harness import it; nothing else should.
//
// Invariant: it blank-imports each commands/<domain> package and declares nothing but
// the corpus's tier table (tiers.json, bridgecheck's verdicts), which it applies to
// commands.Default.
package all

import (
	// Domains register their commands from init.
	_ "github.com/cmdbridge/cmdbridge/commands/agent"
	_ "github.com/cmdbridge/cmdbridge/commands/config"
	_ "github.com/cmdbridge/cmdbridge/commands/files"
	_ "github.com/cmdbridge/cmdbridge/commands/flow"
	_ "github.com/cmdbridge/cmdbridge/commands/initiative"
	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	_ "github.com/cmdbridge/cmdbridge/commands/state"
	_ "github.com/cmdbridge/cmdbridge/commands/workspace"
	_ "github.com/cmdbridge/cmdbridge/commands/wu"
)
