package cli

import (
	"os"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel/statedir"
)

// stateOf returns the state directory of the workspace the global flags name (where the
// token key, evidence and outbox live), after moving an older in-workspace .cmdbridge/
// there. The kernel finds the same directory the same way.
func stateOf(c *ucli.Context) (statedir.Dir, error) {
	ws, err := existingWorkspace(c)
	if err != nil {
		return statedir.Dir{}, err
	}
	d, err := statedir.Find(ws, os.LookupEnv)
	if err != nil {
		return statedir.Dir{}, err
	}
	if _, err := statedir.Migrate(ws, d); err != nil {
		return statedir.Dir{}, err
	}
	return d, nil
}

// StateDir is the state directory of the workspace the command line c names, for
// subcommands of other packages (Host.Subcommands: the conductor's).
func StateDir(c *ucli.Context) (statedir.Dir, error) { return stateOf(c) }
