package helptree_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy/helptree"
)

// A page in urfave/cli v2's default app template, with categories, a multi-line
// usage, every flag shape the default FlagStringer prints and a flag category.
const appPage = `NAME:
   dbkit - apply numbered SQL migrations to a database

USAGE:
   dbkit [global options] command [command options]

VERSION:
   2.3.0

DESCRIPTION:
   dbkit applies migrations.
   Two lines of it.

COMMANDS:
   new, n          write a new migration file
   rollback, down  roll back the most recent migration
                   and say so
   help, h         Shows a list of commands or help for one command
   Schema:
     dump  write the database schema to a file
     load

GLOBAL OPTIONS:
   --url URL, -u URL                    database URL (file:PATH) [$DATABASE_URL]
   --env-file FILE [ --env-file FILE ]  load environment variables from FILE (default: ".env")
   --no-dump-schema                     do not update the schema file (default: false) [$DBKIT_NO_DUMP_SCHEMA, $NO_DUMP]
   --count value                        how many (default: 0)

   Tuning

   --ratio value    a ratio (default: 0.5)
   --wait value     how long (default: 1m30s)
   --ids value [ --ids value ]  ids (default: 1, 2)
   --verbose        say more (default: true)
   --help, -h       show help
   --version, -v    print the version
`

func TestParseReadsEverySection(t *testing.T) {
	p, err := helptree.Parse(appPage)
	require.NoError(t, err)
	assert.Equal(t, "dbkit", p.HelpName)
	assert.Equal(t, "apply numbered SQL migrations to a database", p.Usage)
	assert.Equal(t, "dbkit [global options] command [command options]", p.UsageLine)
	assert.Equal(t, "2.3.0", p.Version)
	assert.Equal(t, "dbkit applies migrations.\nTwo lines of it.", p.Description)
	assert.True(t, p.HelpCommand)
	assert.Equal(t, []helptree.Entry{
		{Names: []string{"new", "n"}, Usage: "write a new migration file"},
		{Names: []string{"rollback", "down"}, Usage: "roll back the most recent migration\nand say so"},
		{Names: []string{"dump"}, Usage: "write the database schema to a file", Category: "Schema"},
		{Names: []string{"load"}, Category: "Schema"},
	}, p.Commands)
	assert.Empty(t, p.Warnings)
	var names []string
	for _, f := range p.Flags {
		names = append(names, f.Names[0])
	}
	assert.Equal(t, []string{"url", "env-file", "no-dump-schema", "count", "ratio", "wait", "ids", "verbose"}, names, "help and version left out")
	assert.Equal(t, helptree.Flag{Names: []string{"url", "u"}, Placeholder: "URL", Usage: "database URL (file:PATH)", EnvVars: []string{"DATABASE_URL"}}, p.Flags[0])
	assert.Equal(t, helptree.Flag{Names: []string{"env-file"}, Placeholder: "FILE", Slice: true, Usage: "load environment variables from FILE", Default: `".env"`, HasDefault: true}, p.Flags[1])
	assert.Equal(t, helptree.Flag{Names: []string{"no-dump-schema"}, Usage: "do not update the schema file", Default: "false", HasDefault: true, EnvVars: []string{"DBKIT_NO_DUMP_SCHEMA", "NO_DUMP"}}, p.Flags[2])
}

func TestParseRefusesWhatIsNoHelp(t *testing.T) {
	for _, text := range []string{"", "usage: tool [-v] file\n", "Usage of tool:\n  -v\tverbose\n", "NAME:\n   x - y\n"} {
		_, err := helptree.Parse(text)
		var nh *helptree.ErrNotHelp
		assert.ErrorAs(t, err, &nh, "%q", text)
	}
}

func TestParseWarnsOnALineItCannotRead(t *testing.T) {
	p, err := helptree.Parse("NAME:\n   x\n\nUSAGE:\n   x [command options]\n\nOPTIONS:\n   --a A, --b B  mixed placeholders\n   --ok value    fine\n")
	require.NoError(t, err)
	require.Len(t, p.Flags, 1)
	assert.Equal(t, "ok", p.Flags[0].Names[0])
	require.Len(t, p.Warnings, 1)
	assert.Contains(t, p.Warnings[0], "--a A, --b B")
}

// TestFlagOfInfersTypes: the type help output implies, and the default it prints.
func TestFlagOfInfersTypes(t *testing.T) {
	p, err := helptree.Parse(appPage)
	require.NoError(t, err)
	want := map[string]cli.Flag{
		"url":            &cli.StringFlag{Name: "url", Aliases: []string{"u"}, Usage: "database `URL` (file:PATH)", EnvVars: []string{"DATABASE_URL"}},
		"env-file":       &cli.StringSliceFlag{Name: "env-file", Usage: "load environment variables from `FILE`", Value: cli.NewStringSlice(".env")},
		"no-dump-schema": &cli.BoolFlag{Name: "no-dump-schema", Usage: "do not update the schema file", EnvVars: []string{"DBKIT_NO_DUMP_SCHEMA", "NO_DUMP"}},
		"count":          &cli.IntFlag{Name: "count", Usage: "how many"},
		"ratio":          &cli.Float64Flag{Name: "ratio", Usage: "a ratio", Value: 0.5},
		"wait":           &cli.DurationFlag{Name: "wait", Usage: "how long", Value: 90e9},
		"ids":            &cli.IntSliceFlag{Name: "ids", Usage: "ids", Value: cli.NewIntSlice(1, 2)},
		"verbose":        &cli.BoolFlag{Name: "verbose", Usage: "say more", Value: true},
	}
	for _, f := range p.Flags {
		got, warning := helptree.FlagOf(f)
		assert.Empty(t, warning, f.Names[0])
		assert.Equal(t, want[f.Names[0]], got, f.Names[0])
	}
	got, _ := helptree.FlagOf(helptree.Flag{Names: []string{"n"}, Placeholder: "N", Usage: "No more than N items"})
	assert.Equal(t, "No more than `N` items", got.(*cli.StringFlag).Usage, "the placeholder is a word of its own")
	_, warning := helptree.FlagOf(helptree.Flag{Names: []string{"b"}, Default: "sometimes", HasDefault: true})
	assert.Contains(t, warning, `flag --b: its default "sometimes"`)
}
