package ops

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
)

// GitLogInput is git:log's input (corpus §3.3).
type GitLogInput struct {
	MaxCount int
	Since    *string // nil: not given
	Author   *string // nil: not given
	Oneline  bool
	Ref      string // "": HEAD
}

// GitLogData is git:log's JSON data.
type GitLogData struct {
	Commits []GitCommit `json:"commits"`
}

// GitCommit is one commit of git:log.
type GitCommit struct {
	SHA         string `json:"sha"`
	ShortSHA    string `json:"short_sha"`
	AuthorName  string `json:"author_name"`
	AuthorEmail string `json:"author_email"`
	Date        string `json:"date"`
	Subject     string `json:"subject"`
}

// GitLog is corpus §3.3 git:log for a call started in dir: the commits newest first, run in
// the workspace root (else dir). Notes.Text is the text output.
func GitLog(ctx context.Context, dir string, env gitrepo.LookupEnv, in GitLogInput) (GitLogData, Notes, error) {
	var notes Notes
	base, err := confineBase(ctx, dir, env)
	if err != nil {
		return GitLogData{}, notes, err
	}
	args := []string{"log", "--no-color", "--max-count=" + strconv.Itoa(in.MaxCount),
		"--format=%H%x00%an%x00%ae%x00%aI%x00%s"}
	if in.Since != nil {
		args = append(args, "--since="+*in.Since)
	}
	if in.Author != nil {
		args = append(args, "--author="+*in.Author)
	}
	// --end-of-options: the ref is a revision, never an option (--output=FILE would
	// have git write FILE), whatever reaches the command.
	args = append(args, "--end-of-options")
	if in.Ref != "" {
		args = append(args, in.Ref)
	}
	out, err := gitRead(ctx, base, nil, append(args, "--")...)
	if err != nil {
		return GitLogData{}, notes, err
	}
	data := GitLogData{Commits: []GitCommit{}}
	var text strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		f := strings.Split(line, "\x00")
		if len(f) != 5 {
			continue
		}
		date := f[3]
		if t, err := time.Parse(time.RFC3339, f[3]); err == nil {
			date = t.Format(time.RFC3339)
		}
		cm := GitCommit{SHA: f[0], ShortSHA: f[0][:min(7, len(f[0]))], AuthorName: f[1],
			AuthorEmail: f[2], Date: date, Subject: f[4]}
		data.Commits = append(data.Commits, cm)
		if in.Oneline {
			fmt.Fprintf(&text, "%s %s\n", cm.ShortSHA, cm.Subject)
		} else {
			fmt.Fprintf(&text, "%s  %s  %s  %s\n", cm.SHA, cm.Date, cm.AuthorName, cm.Subject)
		}
	}
	if len(data.Commits) == 0 {
		text.WriteString("No commits found.\n")
	}
	notes.Text = text.String()
	return data, notes, nil
}
