// Command kit keeps notes in a directory.
//
// kit is an outside module for cmdbridge's tests, written with urfave/cli v3 the way
// such tools are written without cmdbridge in mind (it does not import it), with the
// command line of testdata/cobrakit: the root's flags (--data-dir, -v) reach every
// command and its Before creates the data directory; notes is a command group with a
// flag of its own; add takes repeated --tag flags and a required --priority; import
// reads notes from stdin; list prints plain text, or JSON with --json; rm deletes;
// wait exits through os.Exit; debug is hidden.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"
)

func main() {
	cmd := newRoot()
	os.Exit(finish(cmd.Run(context.Background(), os.Args)))
}

// finish prints the error Run returned, if any, and gives the exit status.
func finish(err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, "Error:", err)
	return 1
}

type note struct {
	ID       int      `json:"id"`
	Title    string   `json:"title"`
	Notebook string   `json:"notebook"`
	Priority int      `json:"priority"`
	Tags     []string `json:"tags"`
}

func newRoot() *cli.Command {
	dataDir := func(cmd *cli.Command) string { return cmd.String("data-dir") }
	add := &cli.Command{
		Name:      "add",
		Usage:     "add a note",
		ArgsUsage: "<title>",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "tag", Aliases: []string{"t"}, Usage: "tag the note"},
			&cli.IntFlag{Name: "priority", Usage: "how urgent (1-5)", Required: true},
		},
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 1 {
				return fmt.Errorf("add takes one title, got %d", cmd.NArg())
			}
			all, err := load(dataDir(cmd))
			if err != nil {
				return err
			}
			n := note{ID: len(all) + 1, Title: cmd.Args().First(), Notebook: cmd.String("notebook"), Priority: int(cmd.Int("priority")), Tags: cmd.StringSlice("tag")}
			if err := save(dataDir(cmd), append(all, n)); err != nil {
				return err
			}
			if cmd.Bool("verbose") {
				fmt.Fprintf(cmd.Root().ErrWriter, "saved to %s\n", dataDir(cmd))
			}
			fmt.Fprintf(cmd.Root().Writer, "added %d: %s\n", n.ID, n.Title)
			return nil
		},
	}
	importCmd := &cli.Command{
		Name:  "import",
		Usage: "add notes from stdin, one title per line",
		Action: func(_ context.Context, cmd *cli.Command) error {
			all, err := load(dataDir(cmd))
			if err != nil {
				return err
			}
			lines := bufio.NewScanner(cmd.Root().Reader)
			added := 0
			for lines.Scan() {
				if t := strings.TrimSpace(lines.Text()); t != "" {
					all = append(all, note{ID: len(all) + 1, Title: t, Notebook: cmd.String("notebook"), Tags: []string{}})
					added++
				}
			}
			if err := save(dataDir(cmd), all); err != nil {
				return err
			}
			fmt.Fprintf(cmd.Root().Writer, "imported %d\n", added)
			return nil
		},
	}
	list := &cli.Command{
		Name:  "list",
		Usage: "list the notes of the notebook",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(_ context.Context, cmd *cli.Command) error {
			all, err := load(dataDir(cmd))
			if err != nil {
				return err
			}
			var mine []note
			for _, n := range all {
				if n.Notebook == cmd.String("notebook") {
					mine = append(mine, n)
				}
			}
			if cmd.Bool("json") {
				return json.NewEncoder(cmd.Root().Writer).Encode(mine)
			}
			for _, n := range mine {
				fmt.Fprintf(cmd.Root().Writer, "%d\t%s\t%s\n", n.ID, n.Title, strings.Join(n.Tags, ","))
			}
			return nil
		},
	}
	rm := &cli.Command{
		Name:      "rm",
		Usage:     "delete a note",
		ArgsUsage: "<id>",
		Action: func(_ context.Context, cmd *cli.Command) error {
			all, err := load(dataDir(cmd))
			if err != nil {
				return err
			}
			for i, n := range all {
				if fmt.Sprint(n.ID) == cmd.Args().First() {
					return save(dataDir(cmd), append(all[:i], all[i+1:]...))
				}
			}
			return fmt.Errorf("no note %s", cmd.Args().First())
		},
	}
	wait := &cli.Command{
		Name:  "wait",
		Usage: "wait for nothing; --fail exits 3",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "fail", Usage: "exit 3"}},
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Bool("fail") {
				fmt.Fprintln(cmd.Root().ErrWriter, "kit: failing as asked")
				os.Exit(3)
			}
			fmt.Fprintln(cmd.Root().Writer, "done waiting")
			return nil
		},
	}
	return &cli.Command{
		Name:    "kit",
		Usage:   "keep notes",
		Version: "0.4.0",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "data-dir", Value: ".kit", Usage: "where the notes are kept"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "say more"},
		},
		Before: func(ctx context.Context, cmd *cli.Command) (context.Context, error) {
			return ctx, os.MkdirAll(cmd.String("data-dir"), 0o755)
		},
		Commands: []*cli.Command{
			{
				Name: "notes", Aliases: []string{"n"}, Usage: "work with notes",
				Flags:    []cli.Flag{&cli.StringFlag{Name: "notebook", Value: "main", Usage: "the notebook"}},
				Commands: []*cli.Command{add, importCmd, list, rm},
			},
			wait,
			{Name: "debug", Hidden: true, Action: func(context.Context, *cli.Command) error { return nil }},
		},
	}
}

func load(dir string) ([]note, error) {
	b, err := os.ReadFile(filepath.Join(dir, "notes.json"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var all []note
	return all, json.Unmarshal(b, &all)
}

func save(dir string, all []note) error {
	b, err := json.Marshal(all)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "notes.json"), b, 0o644)
}
