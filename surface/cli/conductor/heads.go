package conductor

import (
	"context"
	"fmt"
	"path/filepath"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/cli"
)

// headsDir is the control plane's store of every workspace's evidence heads, inside
// its state directory.
const headsDir = "heads"

type conductorWitnessOptions struct {
	IO    streams
	Conn  brokerConn
	Watch watch
	Ctx   context.Context
}

// newConductorWitnessCmd keeps every workspace's evidence heads as they arrive
// (broker.KeepHeads).
func newConductorWitnessCmd(runF func(*conductorWitnessOptions) error) *ucli.Command {
	opts := &conductorWitnessOptions{}
	durable := ucli.StringFlag{Usage: "durable consumer name: heads published while away arrive when it returns", Value: "cmdbridge-witness"}
	return &ucli.Command{
		Name:  "witness",
		Usage: "keep every workspace's signed evidence heads (evidence:checkpoint events) in this state directory; prints one JSON line per head",
		Flags: append(watchFlags(&opts.Watch, durable, "heads"), connFlags(&opts.Conn)...),
		Action: func(c *ucli.Context) error {
			opts.IO = streamsOf(c)
			opts.Conn.bind(c)
			opts.Ctx = c.Context
			if runF != nil {
				return runF(opts)
			}
			return runConductorWitness(opts)
		},
	}
}

func runConductorWitness(opts *conductorWitnessOptions) error {
	st, devs, nc, err := opts.Conn.controlPlane()
	if err != nil {
		return fmt.Errorf("conductor witness: %w", err)
	}
	defer nc.Close()
	store, err := broker.OpenHeadStore(filepath.Join(st.Root, headsDir))
	if err != nil {
		return fmt.Errorf("conductor witness: %w", err)
	}
	ctx, cancel := opts.Watch.context(opts.Ctx)
	defer cancel()
	n, limit := 0, opts.Watch.Count
	ready := func() { fmt.Fprintln(opts.IO.ErrOut, "cmdbridge conductor: keeping every workspace's evidence heads") }
	err = broker.KeepHeads(ctx, nc, opts.Watch.Durable, store, ready, func(ws string, h broker.Head, err error) {
		if n++; limit > 0 && n >= limit {
			defer cancel()
		}
		row := map[string]any{"workspace": ws, "name": devs[ws], "n": h.N, "root": h.Root}
		if h.Conflict != "" {
			row["conflict"] = h.Conflict
		}
		if h.Unlinked {
			row["unlinked"] = true
		}
		if err != nil {
			row["error"] = err.Error()
		}
		_ = printJSONLine(opts.IO.Out, row)
	})
	if err != nil {
		return fmt.Errorf("conductor witness: %w", err)
	}
	return nil
}

type conductorCheckpointsOptions struct {
	IO        streams
	State     func() (statedir.Dir, error)
	Workspace string
}

// newConductorCheckpointsCmd prints the heads kept for one workspace, in the form
// `cmdbridge evidence verify --published FILE` reads.
func newConductorCheckpointsCmd(runF func(*conductorCheckpointsOptions) error) *ucli.Command {
	opts := &conductorCheckpointsOptions{}
	return &ucli.Command{
		Name:      "checkpoints",
		Usage:     "print the evidence heads kept for a workspace (JSON lines) for 'cmdbridge evidence verify --published FILE'; conflicts are counted on stderr",
		ArgsUsage: "WORKSPACE_ID",
		Action: func(c *ucli.Context) error {
			opts.IO = streamsOf(c)
			if c.NArg() != 1 {
				return cli.UsageErrorf("conductor checkpoints: want one WORKSPACE_ID argument")
			}
			opts.Workspace, opts.State = c.Args().First(), stateDirOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runConductorCheckpoints(opts)
		},
	}
}

func runConductorCheckpoints(opts *conductorCheckpointsOptions) error {
	st, err := opts.State()
	if err != nil {
		return fmt.Errorf("conductor checkpoints: %w", err)
	}
	store, err := broker.OpenHeadStore(filepath.Join(st.Root, headsDir))
	if err != nil {
		return fmt.Errorf("conductor checkpoints: %w", err)
	}
	heads, err := store.Heads(opts.Workspace)
	if err != nil {
		return fmt.Errorf("conductor checkpoints: %w", err)
	}
	conflicts := 0
	for _, h := range heads {
		if h.Conflict != "" {
			conflicts++
		}
		if err := printJSONLine(opts.IO.Out, h); err != nil {
			return err
		}
	}
	if len(heads) == 0 {
		return fmt.Errorf("conductor checkpoints: no heads kept for %q (is 'conductor witness' running?)", opts.Workspace)
	}
	if conflicts > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "cmdbridge conductor: %d of %d heads of %s conflict with the heads kept before them (see \"conflict\")\n", conflicts, len(heads), opts.Workspace)
	}
	return nil
}
