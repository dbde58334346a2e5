// Package gizmo is the scaffold's outside-style test subject: a small urfave/cli program
// with a command tree (gizmo notes add, gizmo notes list) registered whole with
// (*legacy.Registry).AddApp into a registry of its own, with plain output, no JSON
// envelope and nothing from the cmdbridge corpus, as an adopter would write it.
package gizmo

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Commands holds gizmo's leaves (notes:add, notes:list).
var Commands = legacy.NewRegistry()

func init() {
	if err := Commands.AddApp(NewApp, legacy.TreeOptions{}); err != nil {
		panic(err)
	}
}

// NewApp builds the gizmo program.
func NewApp() *cli.App {
	return &cli.App{
		Name:  "gizmo",
		Usage: "keep notes in files",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "upper", Usage: "write notes in capitals"},
		},
		Commands: []*cli.Command{
			{
				Name:  "notes",
				Usage: "work with notes",
				Subcommands: []*cli.Command{
					newAddCommand(),
					{
						Name:      "list",
						Usage:     "print a notes file",
						ArgsUsage: " ", // no positionals (cmdbridge offers args otherwise)
						Flags:     []cli.Flag{&cli.StringFlag{Name: "input", Usage: "the notes file", Required: true}},
						Action: func(c *cli.Context) error {
							b, err := os.ReadFile(c.String("input"))
							if err != nil {
								return cli.Exit(err.Error(), 1)
							}
							fmt.Print(string(b))
							return nil
						},
					},
				},
			},
		},
	}
}

// newAddCommand is declared apart from the tree, as larger programs do: the scaffold
// finds it by name and parent.
func newAddCommand() *cli.Command {
	return &cli.Command{
		Name:      "add",
		Usage:     "append a note to a file",
		ArgsUsage: " ", // no positionals (cmdbridge offers args otherwise)
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Usage: "the notes file", Required: true},
			&cli.StringFlag{Name: "text", Usage: "the note", Required: true},
		},
		Action: func(c *cli.Context) error {
			note := c.String("text")
			if c.Bool("upper") {
				note = strings.ToUpper(note)
			}
			f, err := os.OpenFile(c.String("output"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return cli.Exit(err.Error(), 1)
			}
			defer f.Close()
			if _, err := fmt.Fprintln(f, note); err != nil {
				return cli.Exit(err.Error(), 1)
			}
			fmt.Printf("added %q to %s\n", note, c.String("output"))
			fmt.Fprintf(os.Stderr, "gizmo: %d bytes\n", len(note)+1)
			return nil
		},
	}
}
