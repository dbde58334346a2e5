package cli

import (
	"fmt"
	"path/filepath"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/surface/broker"
)

// headsDir is the control plane's store of every workspace's evidence heads, inside
// its state directory.
const headsDir = "heads"

// witnessCommand keeps every workspace's evidence heads as they arrive (broker.KeepHeads).
func witnessCommand(conn []ucli.Flag) *ucli.Command {
	return &ucli.Command{
		Name:  "witness",
		Usage: "keep every workspace's signed evidence heads (evidence:checkpoint events) in this state directory; prints one JSON line per head",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "durable", Usage: "durable consumer name: heads published while away arrive when it returns", Value: "cmdbridge-witness"},
			&ucli.DurationFlag{Name: "for", Usage: "stop after this long (0: until Ctrl-C)"},
			&ucli.IntFlag{Name: "count", Usage: "stop after this many heads (0: no limit)"},
		}, conn...),
		Action: func(c *ucli.Context) error {
			st, devs, nc, err := controlPlane(c)
			if err != nil {
				return fmt.Errorf("conductor witness: %w", err)
			}
			defer nc.Close()
			store, err := broker.OpenHeadStore(filepath.Join(st.Root, headsDir))
			if err != nil {
				return fmt.Errorf("conductor witness: %w", err)
			}
			ctx, cancel := watchContext(c)
			defer cancel()
			n, limit := 0, c.Int("count")
			ready := func() { fmt.Fprintln(c.App.ErrWriter, "cmdbridge conductor: keeping every workspace's evidence heads") }
			err = broker.KeepHeads(ctx, nc, c.String("durable"), store, ready, func(ws string, h broker.Head, err error) {
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
				_ = printJSONLine(c, row)
			})
			if err != nil {
				return fmt.Errorf("conductor witness: %w", err)
			}
			return nil
		},
	}
}

// checkpointsCommand prints the heads kept for one workspace, in the form
// `cmdbridge evidence verify --published FILE` reads.
func checkpointsCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "checkpoints",
		Usage:     "print the evidence heads kept for a workspace (JSON lines) for 'cmdbridge evidence verify --published FILE'; conflicts are counted on stderr",
		ArgsUsage: "WORKSPACE_ID",
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return usageError("conductor checkpoints: want one WORKSPACE_ID argument")
			}
			st, err := stateOf(c)
			if err != nil {
				return fmt.Errorf("conductor checkpoints: %w", err)
			}
			store, err := broker.OpenHeadStore(filepath.Join(st.Root, headsDir))
			if err != nil {
				return fmt.Errorf("conductor checkpoints: %w", err)
			}
			heads, err := store.Heads(c.Args().First())
			if err != nil {
				return fmt.Errorf("conductor checkpoints: %w", err)
			}
			conflicts := 0
			for _, h := range heads {
				if h.Conflict != "" {
					conflicts++
				}
				if err := printJSONLine(c, h); err != nil {
					return err
				}
			}
			if len(heads) == 0 {
				return fmt.Errorf("conductor checkpoints: no heads kept for %q (is 'conductor witness' running?)", c.Args().First())
			}
			if conflicts > 0 {
				fmt.Fprintf(c.App.ErrWriter, "cmdbridge conductor: %d of %d heads of %s conflict with the heads kept before them (see \"conflict\")\n", conflicts, len(heads), c.Args().First())
			}
			return nil
		},
	}
}
