package legacy_test

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// TestHelpWordIsNotAPositional: urfave/cli v2 answers a first positional "help" or "h"
// with the command's help and runs nothing, so a call giving one would succeed having
// done nothing. Argv refuses it, unless the command hides its help; then the command
// gets the word.
func TestHelpWordIsNotAPositional(t *testing.T) {
	var got string
	tree := func(hide bool) func() *cli.App {
		return func() *cli.App {
			return &cli.App{Name: "kit", Writer: io.Discard, Commands: []*cli.Command{{
				Name: "say", ArgsUsage: "WORD", HideHelp: hide,
				Action: func(c *cli.Context) error { got = c.Args().First(); return nil },
			}}}
		}
	}
	for _, hide := range []bool{false, true} {
		cs, err := legacy.FromApp(tree(hide), legacy.TreeOptions{})
		require.NoError(t, err)
		for _, word := range []string{"help", "h"} {
			argv, err := adapter.Argv(cs[0], json.RawMessage(`{"word":"`+word+`"}`))
			if !hide {
				assert.ErrorContains(t, err, `the first positional "`+word+`" is a word kit say answers with its help`, "argv %q", argv)
				continue
			}
			require.NoError(t, err)
			got = ""
			require.NoError(t, tree(hide)().Run(append([]string{"kit"}, argv...)))
			assert.Equal(t, word, got, "argv %q", argv)
		}
	}
}
