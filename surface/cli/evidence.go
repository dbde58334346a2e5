package cli

import (
	"fmt"
	"os"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
)

// newEvidenceCmd groups the commands over the evidence log.
func newEvidenceCmd(f *factory) *ucli.Command {
	return &ucli.Command{
		Name:        "evidence",
		Usage:       "inspect the evidence log",
		Subcommands: []*ucli.Command{newEvidenceVerifyCmd(f, nil)},
	}
}

type evidenceVerifyOptions struct {
	IO    ioStreams
	State func() (statedir.Dir, error)

	Dir       string // default: evidence/ in the state directory
	Witness   string
	Key       string // a file, or the key text
	Published []string
	JSON      bool
}

func newEvidenceVerifyCmd(f *factory, runF func(*evidenceVerifyOptions) error) *ucli.Command {
	opts := &evidenceVerifyOptions{IO: f.IO}
	return &ucli.Command{
		Name:  "verify",
		Usage: "check the receipts (chain, MACs) and signed checkpoints, against the witness and the control plane's heads when given; exit 1 on any damage",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "dir", Usage: "evidence directory (default: evidence/ in the workspace's state directory: <git common dir>/cmdbridge, or <workspace>/.cmdbridge outside a repository)", Destination: &opts.Dir},
			&ucli.StringFlag{Name: "witness", Usage: "a file of checkpoints kept outside the workspace (evidence.witness in the config): every one must hold for the log", Destination: &opts.Witness},
			&ucli.StringFlag{Name: "key", Usage: "the verifier key you trust, as a file or as the key text: checkpoints are checked with it, and a different verifier.key fails", Destination: &opts.Key},
			&ucli.StringSliceFlag{Name: "published", Usage: "a file of the heads the control plane kept for this workspace ('cmdbridge conductor checkpoints WS'): every one must hold for the log, through a consistency proof, and still be among its checkpoints (repeatable)"},
			&ucli.BoolFlag{Name: "json", Usage: "print the report as JSON", Destination: &opts.JSON},
		},
		Action: func(c *ucli.Context) error {
			opts.Published, opts.State = c.StringSlice("published"), stateDirOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runEvidenceVerify(opts)
		},
	}
}

func runEvidenceVerify(opts *evidenceVerifyOptions) error {
	dir := opts.Dir
	if dir == "" {
		st, err := opts.State()
		if err != nil {
			return fmt.Errorf("evidence verify: %w", err)
		}
		dir = st.Path(statedir.Evidence)
	}
	vo := evidence.VerifyOptions{Witness: opts.Witness, Key: opts.Key, Published: opts.Published}
	if vo.Key != "" {
		if text, err := os.ReadFile(vo.Key); err == nil {
			vo.Key = string(text)
		} else if !strings.Contains(vo.Key, "+") {
			return fmt.Errorf("--key: %w", err)
		}
	}
	rep, err := evidence.VerifyWith(dir, vo)
	if err != nil {
		return fmt.Errorf("evidence verify: %w", err)
	}
	if opts.JSON {
		if err := printJSON(opts.IO.Out, rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(opts.IO.Out, "%d records, %d checkpoints covering %d\n", rep.Records, rep.Checkpoints, rep.Covered)
		for _, p := range rep.Problems {
			fmt.Fprintf(opts.IO.Out, "  %v\n", p)
		}
		if rep.OK() {
			fmt.Fprintln(opts.IO.Out, "ok")
		}
	}
	if !rep.OK() {
		return ErrSilent
	}
	return nil
}
