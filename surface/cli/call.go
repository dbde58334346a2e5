package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"os/user"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/tool"
)

func callCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "call",
		Usage:     "call one tool through the kernel and print its Output as JSON",
		ArgsUsage: "NAME",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "input", Usage: "the tool input as a JSON object", Value: "{}"},
			&ucli.StringFlag{Name: "input-file", Usage: "read the input from this file (- for stdin)"},
			&ucli.StringFlag{Name: "stdin", Usage: "the tool's standard input, read from this file (- for this process's stdin), for commands that read a file argument -"},
			&ucli.StringFlag{Name: "lane", Usage: "force a lane: adapter, subprocess, native or sandbox (an explicit override of the route)"},
			&ucli.BoolFlag{Name: "interactive", Usage: "a person is present: policy 'ask' prompts on the terminal"},
			&ucli.DurationFlag{Name: "timeout", Usage: "call deadline (clamped to the tool's maximum; 0 = the tool's default)"},
			&ucli.StringSliceFlag{Name: "scope", Usage: "caller scope read:PATH or write:PATH, repeatable (default: write on the workspace)"},
		}, viewFlags()...),
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return usageError("call takes exactly one tool name")
			}
			if c.String("stdin") == "-" && c.String("input-file") == "-" {
				return usageError("--input-file - and --stdin - cannot both read this process's stdin")
			}
			input, err := readInput(c)
			if err != nil {
				return err
			}
			caller, err := callerFromFlags(c)
			if err != nil {
				return err
			}
			if lane := c.String("lane"); lane != "" && lane != "adapter" && lane != "subprocess" && lane != "native" && lane != "sandbox" {
				return usageError("--lane must be adapter, subprocess, native or sandbox, not %q", lane)
			}
			k, err := openKernel(c)
			if err != nil {
				return fmt.Errorf("call: %w", err)
			}
			defer k.Close()
			stdin, err := readStdin(c, k.MaxStdin())
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			res := k.Call(ctx, kernel.Request{
				Tool:        c.Args().First(),
				Input:       input,
				Caller:      caller,
				Interactive: c.Bool("interactive"),
				Timeout:     c.Duration("timeout"),
				Lane:        c.String("lane"),
				Stdin:       stdin,
			})
			if e := res.Output.Error; e != nil && e.Code == tool.CodeToolNotFound && e.Details == nil {
				// A local user sees every tool, so naming the nearest one leaks nothing.
				if near := tool.Suggest(c.Args().First(), toolNames(k)); near != "" {
					e.Message += tool.DidYouMean(c.Args().First(), toolNames(k))
					e.Details = map[string]string{"did_you_mean": near}
				}
			}
			if err := printJSON(c.App.Writer, res.Output); err != nil {
				return err
			}
			if !res.Output.Success {
				return ErrSilent
			}
			return nil
		},
	}
}

// toolNames are the canonical names of the tools k serves.
func toolNames(k *kernel.Kernel) []string {
	var names []string
	for _, s := range k.Tools() {
		names = append(names, s.Name)
	}
	return names
}

// readInput returns the call input, which must be one JSON object.
func readInput(c *ucli.Context) (json.RawMessage, error) {
	raw := []byte(c.String("input"))
	if f := c.String("input-file"); f != "" {
		var err error
		if f == "-" {
			raw, err = readAll(c.App.Reader)
		} else {
			raw, err = os.ReadFile(f)
		}
		if err != nil {
			return nil, usageError("--input-file: %v", err)
		}
	}
	if why := tool.DescribeJSON(raw); why != "" {
		src := "--input"
		if f := c.String("input-file"); f != "" {
			src = "--input-file " + f
		}
		return nil, usageError("%s is not a JSON object: %s", src, why)
	}
	return json.RawMessage(raw), nil
}

// readStdin reads the tool's stdin named by --stdin (nil when absent). It reads at most
// one byte past limit, so an oversized stdin is refused by the kernel, on the record,
// without being read whole.
func readStdin(c *ucli.Context, limit int) ([]byte, error) {
	name := c.String("stdin")
	if name == "" {
		return nil, nil
	}
	var r io.Reader = c.App.Reader
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, usageError("--stdin: %v", err)
		}
		defer f.Close()
		r = f
	} else if r == nil {
		r = os.Stdin
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, usageError("--stdin: %v", err)
	}
	return data, nil
}

// callerFromFlags is the local operator's identity: the OS user, with the scopes given by
// --scope, or write access to the workspace when none are given.
func callerFromFlags(c *ucli.Context) (kernel.Caller, error) {
	subject := "local"
	if u, err := user.Current(); err == nil {
		subject = "local:" + u.Username
	}
	scopes := c.StringSlice("scope")
	if len(scopes) == 0 {
		return kernel.WorkspaceCaller(subject), nil
	}
	caller := kernel.Caller{Subject: subject}
	for _, s := range scopes {
		kind, path, ok := strings.Cut(s, ":")
		if !ok || path == "" {
			return caller, usageError("--scope %q: want read:PATH or write:PATH", s)
		}
		switch kind {
		case "read":
			caller.Read = append(caller.Read, path)
		case "write":
			caller.Write = append(caller.Write, path)
		default:
			return caller, usageError("--scope %q: want read:PATH or write:PATH", s)
		}
	}
	return caller, nil
}

func batchCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "batch",
		Usage:     "run a JSON array of calls as one batch and print the results in request order",
		ArgsUsage: "FILE",
		Flags: append([]ucli.Flag{
			&ucli.BoolFlag{Name: "interactive", Usage: "a person is present: policy 'ask' prompts on the terminal"},
			&ucli.StringSliceFlag{Name: "scope", Usage: "caller scope read:PATH or write:PATH, repeatable (default: write on the workspace)"},
		}, viewFlags()...),
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return usageError("batch takes exactly one file (- for stdin)")
			}
			var raw []byte
			var err error
			if f := c.Args().First(); f == "-" {
				raw, err = readAll(c.App.Reader)
			} else {
				raw, err = os.ReadFile(f)
			}
			if err != nil {
				return usageError("batch: %v", err)
			}
			var items []struct {
				Tool    string          `json:"tool"`
				Input   json.RawMessage `json:"input"`
				Lane    string          `json:"lane"`
				Timeout string          `json:"timeout"`
				Stdin   *string         `json:"stdin"`
			}
			dec := json.NewDecoder(strings.NewReader(string(raw)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&items); err != nil {
				return usageError("batch file must be a JSON array of {tool, input, lane?, timeout?, stdin?}: %v", err)
			}
			caller, err := callerFromFlags(c)
			if err != nil {
				return err
			}
			reqs := make([]kernel.Request, len(items))
			for i, it := range items {
				var d time.Duration
				if it.Timeout != "" {
					if d, err = time.ParseDuration(it.Timeout); err != nil {
						return usageError("call %d: timeout %q: %v", i, it.Timeout, err)
					}
				}
				if it.Input == nil {
					it.Input = json.RawMessage(`{}`)
				}
				reqs[i] = kernel.Request{Tool: it.Tool, Input: it.Input, Caller: caller, Lane: it.Lane,
					Timeout: d, Interactive: c.Bool("interactive")}
				if it.Stdin != nil {
					reqs[i].Stdin = []byte(*it.Stdin)
				}
			}
			store, withStore := hostStore()
			defer store.Close()
			k, err := openKernel(c, withStore)
			if err != nil {
				return fmt.Errorf("batch: %w", err)
			}
			defer k.Close()
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			results := k.Batch(ctx, reqs)
			outs := make([]any, len(results))
			allOK := true
			for i, r := range results {
				outs[i] = r.Output
				allOK = allOK && r.Output.Success
			}
			if err := printJSON(c.App.Writer, outs); err != nil {
				return err
			}
			if !allOK {
				return ErrSilent
			}
			return nil
		},
	}
}

func evidenceCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "evidence",
		Usage: "inspect the evidence log",
		Subcommands: []*ucli.Command{{
			Name:  "verify",
			Usage: "check the receipts (chain, MACs) and signed checkpoints, against the witness and the control plane's heads when given; exit 1 on any damage",
			Flags: []ucli.Flag{
				&ucli.StringFlag{Name: "dir", Usage: "evidence directory (default: evidence/ in the workspace's state directory: <git common dir>/cmdbridge, or <workspace>/.cmdbridge outside a repository)"},
				&ucli.StringFlag{Name: "witness", Usage: "a file of checkpoints kept outside the workspace (evidence.witness in the config): every one must hold for the log"},
				&ucli.StringFlag{Name: "key", Usage: "the verifier key you trust, as a file or as the key text: checkpoints are checked with it, and a different verifier.key fails"},
				&ucli.StringSliceFlag{Name: "published", Usage: "a file of the heads the control plane kept for this workspace ('cmdbridge conductor checkpoints WS'): every one must hold for the log, through a consistency proof, and still be among its checkpoints (repeatable)"},
				&ucli.BoolFlag{Name: "json", Usage: "print the report as JSON"},
			},
			Action: func(c *ucli.Context) error {
				dir := c.String("dir")
				if dir == "" {
					st, err := stateOf(c)
					if err != nil {
						return fmt.Errorf("evidence verify: %w", err)
					}
					dir = st.Path(statedir.Evidence)
				}
				opts := evidence.VerifyOptions{Witness: c.String("witness"), Key: c.String("key"), Published: c.StringSlice("published")}
				if opts.Key != "" {
					if text, err := os.ReadFile(opts.Key); err == nil {
						opts.Key = string(text)
					} else if !strings.Contains(opts.Key, "+") {
						return fmt.Errorf("--key: %w", err)
					}
				}
				rep, err := evidence.VerifyWith(dir, opts)
				if err != nil {
					return fmt.Errorf("evidence verify: %w", err)
				}
				if c.Bool("json") {
					if err := printJSON(c.App.Writer, rep); err != nil {
						return err
					}
				} else {
					fmt.Fprintf(c.App.Writer, "%d records, %d checkpoints covering %d\n", rep.Records, rep.Checkpoints, rep.Covered)
					for _, p := range rep.Problems {
						fmt.Fprintf(c.App.Writer, "  %v\n", p)
					}
					if rep.OK() {
						fmt.Fprintln(c.App.Writer, "ok")
					}
				}
				if !rep.OK() {
					return ErrSilent
				}
				return nil
			},
		}},
	}
}
