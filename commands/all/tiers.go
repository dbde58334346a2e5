package all

import (
	_ "embed"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

//go:generate go run ../../cmd/bridgecheck -tiers tiers.json ../...

// tiersJSON is bridgecheck's verdict on every corpus command, written by go generate and
// checked for staleness by a test.
//
//go:embed tiers.json
var tiersJSON []byte

// The verdicts are applied to commands.Default once every domain has registered (the
// domain packages are imported, so their init functions ran first). A table that does
// not decode or names an unknown command is a build defect: it panics.
func init() {
	t, err := legacy.ParseTiers(tiersJSON)
	if err == nil {
		err = commands.Default.SetTiers(t)
	}
	if err != nil {
		panic("commands/all: " + err.Error())
	}
}
