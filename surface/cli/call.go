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
	"github.com/cmdbridge/cmdbridge/tool"
)

type callOptions struct {
	IO     ioStreams
	Kernel kernelOpener

	Tool        string
	Input       string // --input, the JSON object
	InputFile   string // --input-file: read the input from this file (- for stdin)
	Stdin       string // --stdin: the tool's stdin from this file (- for this process's)
	Lane        string
	Interactive bool
	Timeout     time.Duration
	Scopes      []string
}

func newCallCmd(f *factory, runF func(*callOptions) error) *ucli.Command {
	opts := &callOptions{IO: f.IO}
	return &ucli.Command{
		Name:      "call",
		Usage:     "call one tool through the kernel and print its Output as JSON",
		ArgsUsage: "NAME",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "input", Usage: "the tool input as a JSON object", Value: "{}", Destination: &opts.Input},
			&ucli.StringFlag{Name: "input-file", Usage: "read the input from this file (- for stdin)", Destination: &opts.InputFile},
			&ucli.StringFlag{Name: "stdin", Usage: "the tool's standard input, read from this file (- for this process's stdin), for commands that read a file argument -", Destination: &opts.Stdin},
			&ucli.StringFlag{Name: "lane", Usage: "force a lane: adapter, subprocess, native or sandbox (an explicit override of the route)", Destination: &opts.Lane},
			&ucli.BoolFlag{Name: "interactive", Usage: "a person is present: policy 'ask' prompts on the terminal", Destination: &opts.Interactive},
			&ucli.DurationFlag{Name: "timeout", Usage: "call deadline (clamped to the tool's maximum; 0 = the tool's default)", Destination: &opts.Timeout},
			&ucli.StringSliceFlag{Name: "scope", Usage: "caller scope read:PATH or write:PATH, repeatable (default: write on the workspace)"},
		}, viewFlags()...),
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return usageError("call takes exactly one tool name")
			}
			opts.Tool, opts.Scopes, opts.Kernel = c.Args().First(), c.StringSlice("scope"), kernelOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runCall(opts)
		},
	}
}

func runCall(opts *callOptions) error {
	if opts.Stdin == "-" && opts.InputFile == "-" {
		return usageError("--input-file - and --stdin - cannot both read this process's stdin")
	}
	input, err := readInput(opts.IO.In, opts.Input, opts.InputFile)
	if err != nil {
		return err
	}
	caller, err := callerOf(opts.Scopes)
	if err != nil {
		return err
	}
	if l := opts.Lane; l != "" && l != "adapter" && l != "subprocess" && l != "native" && l != "sandbox" {
		return usageError("--lane must be adapter, subprocess, native or sandbox, not %q", l)
	}
	k, err := opts.Kernel()
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	defer k.Close()
	stdin, err := readStdin(opts.IO.In, opts.Stdin, k.MaxStdin())
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res := k.Call(ctx, kernel.Request{Tool: opts.Tool, Input: input, Caller: caller, Interactive: opts.Interactive,
		Timeout: opts.Timeout, Lane: opts.Lane, Stdin: stdin})
	if e := res.Output.Error; e != nil && e.Code == tool.CodeToolNotFound && e.Details == nil {
		// A local user sees every tool, so naming the nearest one leaks nothing.
		if near := tool.Suggest(opts.Tool, toolNames(k)); near != "" {
			e.Message += tool.DidYouMean(opts.Tool, toolNames(k))
			e.Details = map[string]string{"did_you_mean": near}
		}
	}
	if err := printJSON(opts.IO.Out, res.Output); err != nil {
		return err
	}
	if !res.Output.Success {
		return ErrSilent
	}
	return nil
}

// toolNames are the canonical names of the tools k serves.
func toolNames(k *kernel.Kernel) []string {
	var names []string
	for _, s := range k.Tools() {
		names = append(names, s.Name)
	}
	return names
}

// readInput returns the call input, --input or the file --input-file names (- for
// stdin), which must be one JSON object.
func readInput(stdin io.Reader, input, file string) (json.RawMessage, error) {
	raw := []byte(input)
	if file != "" {
		var err error
		if file == "-" {
			raw, err = io.ReadAll(stdin)
		} else {
			raw, err = os.ReadFile(file)
		}
		if err != nil {
			return nil, usageError("--input-file: %v", err)
		}
	}
	if why := tool.DescribeJSON(raw); why != "" {
		src := "--input"
		if file != "" {
			src = "--input-file " + file
		}
		return nil, usageError("%s is not a JSON object: %s", src, why)
	}
	return json.RawMessage(raw), nil
}

// readStdin reads the tool's stdin from the file name (- for stdin; nil when name is
// empty). It reads at most one byte past limit, so an oversized stdin is refused by the
// kernel, on the record, without being read whole.
func readStdin(stdin io.Reader, name string, limit int) ([]byte, error) {
	if name == "" {
		return nil, nil
	}
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, usageError("--stdin: %v", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, usageError("--stdin: %v", err)
	}
	return data, nil
}

// callerOf is the local operator's identity: the OS user, with the scopes given by
// --scope, or write access to the workspace when none are given.
func callerOf(scopes []string) (kernel.Caller, error) {
	subject := "local"
	if u, err := user.Current(); err == nil {
		subject = "local:" + u.Username
	}
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

type batchOptions struct {
	IO     ioStreams
	Kernel kernelOpener

	File        string // the calls, a JSON array (- for stdin)
	Interactive bool
	Scopes      []string
}

func newBatchCmd(f *factory, runF func(*batchOptions) error) *ucli.Command {
	opts := &batchOptions{IO: f.IO}
	return &ucli.Command{
		Name:      "batch",
		Usage:     "run a JSON array of calls as one batch and print the results in request order",
		ArgsUsage: "FILE",
		Flags: append([]ucli.Flag{
			&ucli.BoolFlag{Name: "interactive", Usage: "a person is present: policy 'ask' prompts on the terminal", Destination: &opts.Interactive},
			&ucli.StringSliceFlag{Name: "scope", Usage: "caller scope read:PATH or write:PATH, repeatable (default: write on the workspace)"},
		}, viewFlags()...),
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return usageError("batch takes exactly one file (- for stdin)")
			}
			opts.File, opts.Scopes, opts.Kernel = c.Args().First(), c.StringSlice("scope"), kernelOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runBatch(opts)
		},
	}
}

func runBatch(opts *batchOptions) error {
	reqs, err := readBatch(opts.IO.In, opts.File, opts.Scopes, opts.Interactive)
	if err != nil {
		return err
	}
	store, withStore := hostStore()
	defer store.Close()
	k, err := opts.Kernel(withStore)
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
	if err := printJSON(opts.IO.Out, outs); err != nil {
		return err
	}
	if !allOK {
		return ErrSilent
	}
	return nil
}

// readBatch reads the batch file (- for stdin): a JSON array of {tool, input, lane?,
// timeout?, stdin?}, each made a request of the caller the scopes give (callerOf).
func readBatch(stdin io.Reader, file string, scopes []string, interactive bool) ([]kernel.Request, error) {
	var raw []byte
	var err error
	if file == "-" {
		raw, err = io.ReadAll(stdin)
	} else {
		raw, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, usageError("batch: %v", err)
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
		return nil, usageError("batch file must be a JSON array of {tool, input, lane?, timeout?, stdin?}: %v", err)
	}
	caller, err := callerOf(scopes)
	if err != nil {
		return nil, err
	}
	reqs := make([]kernel.Request, len(items))
	for i, it := range items {
		var d time.Duration
		if it.Timeout != "" {
			if d, err = time.ParseDuration(it.Timeout); err != nil {
				return nil, usageError("call %d: timeout %q: %v", i, it.Timeout, err)
			}
		}
		if it.Input == nil {
			it.Input = json.RawMessage(`{}`)
		}
		reqs[i] = kernel.Request{Tool: it.Tool, Input: it.Input, Caller: caller, Lane: it.Lane, Timeout: d, Interactive: interactive}
		if it.Stdin != nil {
			reqs[i].Stdin = []byte(*it.Stdin)
		}
	}
	return reqs, nil
}
