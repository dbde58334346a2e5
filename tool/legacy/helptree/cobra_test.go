package helptree

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A cobra leaf's help page, as cobra and pflag print it.
const cobraAddPage = `add a note

Usage:
  kit notes add <title> [body] [flags]

Aliases:
  add, a, new

Flags:
      --color string[="auto"]    colour the note
  -h, --help                     help for add
      --pin                      pin the note (default true)
      --priority int             how urgent (1-5)
      --remind duration          remind after (default 1h30m0s)
  -t, --tag strings              tag the note (default [x,y])
      --labels stringToString    labels (default [])

Global Flags:
      --data-dir string   where the notes are kept (default ".kit")
  -v, --verbose count     say more
`

func TestParseCobra(t *testing.T) {
	p, err := ParseCobra(cobraAddPage)
	require.NoError(t, err)
	assert.Equal(t, "add a note", p.Short)
	assert.Equal(t, "kit notes add <title> [body] [flags]", p.Use)
	assert.Equal(t, []string{"a", "new"}, p.Aliases)
	assert.Equal(t, "<title> [body]", cobraArgs(p.Use, []string{"notes", "add"}))
	assert.Equal(t, []CobraFlag{
		{Name: "color", Type: "string", Usage: "colour the note", Optional: "auto"},
		{Name: "help", Short: "h", Usage: "help for add"},
		{Name: "pin", Usage: "pin the note", Default: "true"},
		{Name: "priority", Type: "int", Usage: "how urgent (1-5)"},
		{Name: "remind", Type: "duration", Usage: "remind after", Default: "1h30m0s"},
		{Name: "tag", Short: "t", Type: "strings", Usage: "tag the note", Default: "[x,y]"},
		{Name: "labels", Type: "stringToString", Usage: "labels", Default: "[]"},
	}, p.Flags)
	assert.Equal(t, []CobraFlag{
		{Name: "data-dir", Type: "string", Usage: "where the notes are kept", Default: `".kit"`},
		{Name: "verbose", Short: "v", Type: "count", Usage: "say more"},
	}, p.Global)

	var r cobraReader
	kinds := map[string]string{}
	for _, f := range r.describe(p.Flags, nil) {
		kinds[f.Name] = f.Kind
		if f.Described != "" {
			kinds[f.Name] += " (described)"
		}
	}
	assert.Equal(t, map[string]string{"color": "bool (described)", "pin": "bool", "priority": "int", "remind": "duration",
		"tag": "string-slice", "labels": "string-slice (described)"}, kinds)

	_, err = ParseCobra("NAME:\n   gizmo - a urfave/cli page\n\nUSAGE:\n   gizmo [global options]\n")
	assert.Error(t, err, "not a cobra page")
}

// A root page of a program that groups its commands (cobra's AddGroup).
const cobraGroupedPage = `Manage the cluster.

Usage:
  kctl [command]

Examples:
  kctl get pods
  kctl apply -f x.yaml

Basic Commands:
  get         Display resources
  apply       Apply a configuration

Troubleshooting Commands:
  logs        Print the logs

Additional Commands:
  version     Print the version
  help        Help about any command

Flags:
      --context string   the context to use
`

func TestParseCobraGroups(t *testing.T) {
	p, err := ParseCobra(cobraGroupedPage)
	require.NoError(t, err)
	var names []string
	for _, c := range p.Commands {
		names = append(names, c.Names[0])
	}
	assert.Equal(t, []string{"get", "apply", "logs", "version", "help"}, names, "every group, not the examples")
	assert.Equal(t, "Display resources", p.Commands[0].Usage)
}
