// Command kit keeps notes in a directory.
//
// kit is an outside module for cmdbridge's tests, written with cobra the way such tools
// are written without cmdbridge in mind (it does not import it): the root's persistent
// flags (--data-dir, -v) reach every command and its PersistentPreRunE creates the data
// directory; notes is a command group with a persistent flag of its own; add takes
// repeated --tag flags and a required --priority; import reads notes from stdin; list
// prints plain text, or JSON with --json; rm deletes; wait exits through os.Exit; debug
// is hidden and show is deprecated.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

func main() {
	root := newRoot()
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}

type note struct {
	ID       int      `json:"id"`
	Title    string   `json:"title"`
	Notebook string   `json:"notebook"`
	Priority int      `json:"priority"`
	Tags     []string `json:"tags"`
}

func newRoot() *cobra.Command {
	var dataDir string
	var verbose int
	root := &cobra.Command{
		Use:     "kit",
		Short:   "keep notes",
		Version: "0.4.0",
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			return os.MkdirAll(dataDir, 0o755)
		},
		SilenceUsage: true,
	}
	root.PersistentFlags().StringVar(&dataDir, "data-dir", ".kit", "where the notes are kept")
	root.PersistentFlags().CountVarP(&verbose, "verbose", "v", "say more")

	var notebook string
	notes := &cobra.Command{Use: "notes", Aliases: []string{"n"}, Short: "work with notes"}
	notes.PersistentFlags().StringVar(&notebook, "notebook", "main", "the notebook")

	var tags []string
	var priority int
	add := &cobra.Command{
		Use:   "add <title>",
		Short: "add a note",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			all, err := load(dataDir)
			if err != nil {
				return err
			}
			n := note{ID: len(all) + 1, Title: args[0], Notebook: notebook, Priority: priority, Tags: tags}
			if err := save(dataDir, append(all, n)); err != nil {
				return err
			}
			if verbose > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "saved to %s\n", dataDir)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "added %d: %s\n", n.ID, n.Title)
			return nil
		},
	}
	add.Flags().StringSliceVarP(&tags, "tag", "t", nil, "tag the note")
	add.Flags().IntVar(&priority, "priority", 0, "how urgent (1-5)")
	_ = add.MarkFlagRequired("priority")

	importCmd := &cobra.Command{
		Use:   "import",
		Short: "add notes from stdin, one title per line",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			all, err := load(dataDir)
			if err != nil {
				return err
			}
			lines := bufio.NewScanner(cmd.InOrStdin())
			added := 0
			for lines.Scan() {
				if t := strings.TrimSpace(lines.Text()); t != "" {
					all = append(all, note{ID: len(all) + 1, Title: t, Notebook: notebook, Tags: []string{}})
					added++
				}
			}
			if err := save(dataDir, all); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "imported %d\n", added)
			return nil
		},
	}

	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "list the notes of the notebook",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			all, err := load(dataDir)
			if err != nil {
				return err
			}
			var mine []note
			for _, n := range all {
				if n.Notebook == notebook {
					mine = append(mine, n)
				}
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(mine)
			}
			for _, n := range mine {
				fmt.Fprintf(cmd.OutOrStdout(), "%d\t%s\t%s\n", n.ID, n.Title, strings.Join(n.Tags, ","))
			}
			return nil
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")

	rm := &cobra.Command{
		Use:   "rm <id>",
		Short: "delete a note",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			all, err := load(dataDir)
			if err != nil {
				return err
			}
			for i, n := range all {
				if fmt.Sprint(n.ID) == args[0] {
					return save(dataDir, append(all[:i], all[i+1:]...))
				}
			}
			return fmt.Errorf("no note %s", args[0])
		},
	}
	notes.AddCommand(add, importCmd, list, rm)

	var fail bool
	wait := &cobra.Command{
		Use:   "wait",
		Short: "wait for nothing; --fail exits 3",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, args []string) {
			if fail {
				fmt.Fprintln(cmd.ErrOrStderr(), "kit: failing as asked")
				os.Exit(3)
			}
			fmt.Fprintln(cmd.OutOrStdout(), "done waiting")
		},
	}
	wait.Flags().BoolVar(&fail, "fail", false, "exit 3")

	debug := &cobra.Command{Use: "debug", Hidden: true, Run: func(*cobra.Command, []string) {}}
	show := &cobra.Command{Use: "show", Deprecated: "use notes list", Run: func(*cobra.Command, []string) {}}
	root.AddCommand(notes, wait, debug, show)
	return root
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
