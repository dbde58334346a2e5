// Package app is gizmo, a small command-line notes tool.
//
// Notes are plain files: <data-dir>/<notebook>/<title>.txt. Tags and labels are
// kept in the first line of the file when there are any ("#tags: a,b").
package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

// Version is gizmo's version.
const Version = "1.4.2"

const tagsPrefix = "#tags: "

// New returns the gizmo application. Every call builds a fresh app.
func New() *cli.App {
	return &cli.App{
		Name:    "gizmo",
		Usage:   "keep plain-text notes",
		Version: Version,
		Flags: []cli.Flag{
			&cli.StringFlag{
				Name:    "data-dir",
				Usage:   "directory holding the notebooks",
				EnvVars: []string{"GIZMO_DATA_DIR"},
				Value:   ".",
			},
		},
		Before: func(c *cli.Context) error {
			dir := c.String("data-dir")
			st, err := os.Stat(dir)
			if err != nil {
				return fmt.Errorf("data dir: %w", err)
			}
			if !st.IsDir() {
				return fmt.Errorf("data dir %s is not a directory", dir)
			}
			return nil
		},
		After: func(c *cli.Context) error {
			return nil
		},
		Commands: []*cli.Command{
			notesCommand(),
			textCommand(),
			{
				Name:  "version",
				Usage: "print gizmo's version",
				Action: func(c *cli.Context) error {
					fmt.Fprintf(c.App.Writer, "gizmo %s\n", Version)
					return nil
				},
			},
		},
	}
}

func notesCommand() *cli.Command {
	return &cli.Command{
		Name:  "notes",
		Usage: "add, list, show, remove and export notes",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "notebook", Aliases: []string{"n"}, Usage: "the notebook to work in", Value: "default"},
		},
		Subcommands: []*cli.Command{
			{
				Name:      "add",
				Usage:     "add a note",
				ArgsUsage: "TITLE",
				Flags: []cli.Flag{
					&cli.StringSliceFlag{Name: "tag", Aliases: []string{"t"}, Usage: "tag the note (repeatable)"},
					&cli.MultiStringFlag{Target: &cli.StringSliceFlag{Name: "label", Usage: "a `KEY=VALUE` label (repeatable)"}},
					&cli.StringFlag{Name: "body", Aliases: []string{"b"}, Usage: "the note's text, or - to read it from stdin"},
				},
				Action: notesAdd,
			},
			{
				Name:   "list",
				Usage:  "list the notes of the notebook",
				Action: notesList,
			},
			{
				Name:      "show",
				Usage:     "print a note as JSON",
				ArgsUsage: "TITLE",
				Action:    notesShow,
			},
			{
				Name:      "rm",
				Aliases:   []string{"remove"},
				Usage:     "remove a note",
				ArgsUsage: "TITLE",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "do not fail when the note does not exist"},
				},
				Action: notesRm,
			},
			{
				Name:  "export",
				Usage: "write every note of the notebook into one file",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE`", Required: true},
				},
				Action: notesExport,
			},
		},
	}
}

func textCommand() *cli.Command {
	return &cli.Command{
		Name:  "text",
		Usage: "small text utilities",
		Subcommands: []*cli.Command{
			{
				Name:      "upper",
				Usage:     "print the words upper-cased",
				ArgsUsage: "WORD [WORD...]",
				Action: func(c *cli.Context) error {
					if c.NArg() == 0 {
						return errors.New("upper: no words")
					}
					fmt.Fprintln(c.App.Writer, strings.ToUpper(strings.Join(c.Args().Slice(), " ")))
					return nil
				},
			},
			{
				Name:      "count",
				Usage:     "count lines, words and bytes of a file or of stdin",
				ArgsUsage: "[FILE|-]",
				Flags: []cli.Flag{
					&cli.IntFlag{Name: "min-length", Usage: "count only words of at least `N` bytes", Value: 1},
					&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "label the counts"},
				},
				Action: textCount,
			},
		},
	}
}

type note struct {
	Title    string   `json:"title"`
	Notebook string   `json:"notebook"`
	Body     string   `json:"body"`
	Tags     []string `json:"tags"`
}

func notebookDir(c *cli.Context) string {
	return filepath.Join(c.String("data-dir"), c.String("notebook"))
}

func notePath(c *cli.Context, title string) string {
	return filepath.Join(notebookDir(c), title+".txt")
}

func validTitle(title string) error {
	if title == "" || title == "." || title == ".." || strings.ContainsAny(title, `/\`) {
		return fmt.Errorf("invalid title %q", title)
	}
	return nil
}

func notesAdd(c *cli.Context) error {
	if c.NArg() == 0 {
		// The parent's context: its command lists "add" among its subcommands.
		cli.ShowCommandHelpAndExit(c.Lineage()[1], "add", 3)
	}
	title := c.Args().First()
	if err := validTitle(title); err != nil {
		return err
	}
	body := c.String("body")
	if body == "-" {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return fmt.Errorf("reading stdin: %w", err)
		}
		body = string(b)
	}
	tags := append(c.StringSlice("tag"), c.StringSlice("label")...)
	var text strings.Builder
	if len(tags) > 0 {
		text.WriteString(tagsPrefix + strings.Join(tags, ",") + "\n")
	}
	text.WriteString(body)
	if err := os.MkdirAll(notebookDir(c), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(notePath(c, title), []byte(text.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "added %s\n", title)
	return nil
}

func titles(c *cli.Context) ([]string, error) {
	entries, err := os.ReadDir(notebookDir(c))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".txt") {
			out = append(out, strings.TrimSuffix(e.Name(), ".txt"))
		}
	}
	sort.Strings(out)
	return out, nil
}

func notesList(c *cli.Context) error {
	ts, err := titles(c)
	if err != nil {
		return err
	}
	for _, t := range ts {
		fmt.Fprintln(c.App.Writer, t)
	}
	return nil
}

func readNote(c *cli.Context, title string) (note, error) {
	if err := validTitle(title); err != nil {
		return note{}, err
	}
	b, err := os.ReadFile(notePath(c, title))
	if errors.Is(err, os.ErrNotExist) {
		return note{}, cli.Exit("no note "+title, 4)
	}
	if err != nil {
		return note{}, err
	}
	n := note{Title: title, Notebook: c.String("notebook"), Body: string(b), Tags: []string{}}
	if first, rest, ok := strings.Cut(n.Body, "\n"); ok && strings.HasPrefix(first, tagsPrefix) {
		n.Tags = strings.Split(strings.TrimPrefix(first, tagsPrefix), ",")
		n.Body = rest
	} else if strings.HasPrefix(n.Body, tagsPrefix) {
		n.Tags = strings.Split(strings.TrimPrefix(n.Body, tagsPrefix), ",")
		n.Body = ""
	}
	return n, nil
}

func notesShow(c *cli.Context) error {
	if c.NArg() != 1 {
		return cli.Exit("show takes exactly one TITLE", 2)
	}
	n, err := readNote(c, c.Args().First())
	if err != nil {
		return err
	}
	enc := json.NewEncoder(c.App.Writer)
	enc.SetIndent("", "  ")
	return enc.Encode(n)
}

func notesRm(c *cli.Context) error {
	if c.NArg() != 1 {
		return cli.Exit("rm takes exactly one TITLE", 2)
	}
	title := c.Args().First()
	if err := validTitle(title); err != nil {
		return err
	}
	err := os.Remove(notePath(c, title))
	if errors.Is(err, os.ErrNotExist) {
		if c.Bool("force") {
			return nil
		}
		return cli.Exit("no note "+title, 4)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "removed %s\n", title)
	return nil
}

func notesExport(c *cli.Context) error {
	ts, err := titles(c)
	if err != nil {
		return err
	}
	var out strings.Builder
	for i, t := range ts {
		n, err := readNote(c, t)
		if err != nil {
			return err
		}
		if i > 0 {
			out.WriteString("\n")
		}
		fmt.Fprintf(&out, "== %s ==\n", n.Title)
		if len(n.Tags) > 0 {
			fmt.Fprintf(&out, "tags: %s\n", strings.Join(n.Tags, ", "))
		}
		out.WriteString(n.Body)
		if n.Body != "" && !strings.HasSuffix(n.Body, "\n") {
			out.WriteString("\n")
		}
	}
	file := c.String("output")
	if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "exported %d notes to %s\n", len(ts), file)
	return nil
}

func textCount(c *cli.Context) error {
	if c.NArg() > 1 {
		return cli.Exit("count takes at most one FILE", 2)
	}
	var r io.Reader = os.Stdin
	name := c.Args().First()
	if name != "" && name != "-" {
		f, err := os.Open(name)
		if err != nil {
			// An old habit of this program: report and leave at once.
			fmt.Fprintf(os.Stderr, "gizmo: count: %v\n", err)
			os.Exit(3)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	lines := strings.Count(string(b), "\n")
	words := 0
	for _, w := range strings.Fields(string(b)) {
		if len(w) >= c.Int("min-length") {
			words++
		}
	}
	if c.Bool("verbose") {
		fmt.Fprintf(c.App.Writer, "lines %d words %d bytes %d\n", lines, words, len(b))
		return nil
	}
	fmt.Fprintf(c.App.Writer, "%d %d %d\n", lines, words, len(b))
	return nil
}
