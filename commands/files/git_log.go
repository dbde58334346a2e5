package files

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "git:log", Domain: "files",
		New: newGitLogApp, Main: convention.Main(newGitLogApp)})
}

func newGitLogApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "git:log",
		Usage:    "List commits, newest first",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.Int("max-count", "most commits to list", 20, nil, nil),
			&cli.StringFlag{Name: "since", Usage: "only commits after this date (any date form git log accepts)"},
			&cli.StringFlag{Name: "author", Usage: "only commits whose author matches"},
			&cli.BoolFlag{Name: "oneline", Usage: "print <sha7> <subject> per commit"},
		},
		Args:   []convention.Arg{{Name: "ref", Usage: "commit, branch or range whose history to list (default: HEAD)"}},
		Action: gitLog,
	})
}

func gitLog(c *convention.Call) error {
	dir, _, err := rootOrCwd(c)
	if err != nil {
		return err
	}
	args := []string{"log", "--no-color", "--max-count=" + strconv.Itoa(c.Int("max-count")),
		"--format=%H%x00%an%x00%ae%x00%aI%x00%s"}
	if c.IsSet("since") {
		args = append(args, "--since="+c.String("since"))
	}
	if c.IsSet("author") {
		args = append(args, "--author="+c.String("author"))
	}
	// --end-of-options: the ref is a revision, never an option (--output=FILE would
	// have git write FILE), whatever reaches the command.
	args = append(args, "--end-of-options")
	if ref := c.Arg("ref"); ref != "" {
		args = append(args, ref)
	}
	out, err := git(c.Context(), dir, nil, append(args, "--")...)
	if err != nil {
		return err
	}
	data := gitLogData{Commits: []gitCommit{}}
	var text strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		f := strings.Split(line, "\x00")
		if len(f) != 5 {
			continue
		}
		date := f[3]
		if t, err := time.Parse(time.RFC3339, f[3]); err == nil {
			date = t.Format(time.RFC3339)
		}
		cm := gitCommit{SHA: f[0], ShortSHA: f[0][:min(7, len(f[0]))], AuthorName: f[1],
			AuthorEmail: f[2], Date: date, Subject: f[4]}
		data.Commits = append(data.Commits, cm)
		if c.Bool("oneline") {
			fmt.Fprintf(&text, "%s %s\n", cm.ShortSHA, cm.Subject)
		} else {
			fmt.Fprintf(&text, "%s  %s  %s  %s\n", cm.SHA, cm.Date, cm.AuthorName, cm.Subject)
		}
	}
	if len(data.Commits) == 0 {
		text.WriteString("No commits found.\n")
	}
	return c.Print(text.String(), data)
}

// gitLogData is git:log's JSON data.
type gitLogData struct {
	Commits []gitCommit `json:"commits"`
}

type gitCommit struct {
	SHA         string `json:"sha"`
	ShortSHA    string `json:"short_sha"`
	AuthorName  string `json:"author_name"`
	AuthorEmail string `json:"author_email"`
	Date        string `json:"date"`
	Subject     string `json:"subject"`
}
