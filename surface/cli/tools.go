package cli

import (
	"fmt"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool"
)

func toolsCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "tools",
		Usage: "list tools, print a tool's input schema, or the whole manifest",
		Subcommands: []*ucli.Command{
			{
				Name:  "list",
				Usage: "every tool with its route and description; (!) marks a tool whose schema has warnings, listed below the table",
				Flags: append([]ucli.Flag{&ucli.BoolFlag{Name: "json", Usage: "print JSON"}}, viewFlags()...),
				Action: func(c *ucli.Context) error {
					k, err := openKernel(c)
					if err != nil {
						return fmt.Errorf("tools list: %w", err)
					}
					defer k.Close()
					type row struct {
						Name        string `json:"name"`
						Route       string `json:"route"`
						Domain      string `json:"domain,omitempty"`
						ReadOnly    bool   `json:"read_only"`
						Description string `json:"description"`
						// Warnings: where the spec is a fallback (docs/schemas.md).
						Warnings []string `json:"warnings,omitempty"`
					}
					var rows []row
					counts := map[string]int{}
					for _, s := range k.Tools() {
						route, _ := k.Route(s.Name)
						counts[route]++
						rows = append(rows, row{s.Name, route, s.Domain, s.Annotations.ReadOnlyHint, s.Description, s.Warnings})
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, rows)
					}
					tw := tabwriter.NewWriter(c.App.Writer, 0, 8, 2, ' ', 0)
					fmt.Fprintln(tw, "NAME\tROUTE\tRO\tDESCRIPTION")
					for _, r := range rows {
						ro := ""
						if r.ReadOnly {
							ro = "yes"
						}
						name := r.Name
						if len(r.Warnings) > 0 {
							name += " (!)"
						}
						fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, r.Route, ro, r.Description)
					}
					if err := tw.Flush(); err != nil {
						return err
					}
					warned := 0
					for _, r := range rows {
						if len(r.Warnings) > 0 {
							if warned == 0 {
								fmt.Fprintln(c.App.Writer, "\n(!) schema warnings (docs/schemas.md):")
							}
							warned++
							for _, w := range r.Warnings {
								fmt.Fprintf(c.App.Writer, "  %s: %s\n", r.Name, w)
							}
						}
					}
					fmt.Fprintf(c.App.Writer, "%d tools: %d adapter, %d native, %d shadow\n",
						len(rows), counts["adapter"], counts["native"], counts["shadow"])
					if warned > 0 {
						fmt.Fprintf(c.App.Writer, "%d tools with schema warnings\n", warned)
					}
					return nil
				},
			},
			{
				Name:      "schema",
				Usage:     "the input JSON Schema of one tool (any spelling of its name)",
				ArgsUsage: "NAME",
				Action: func(c *ucli.Context) error {
					if c.NArg() != 1 {
						return usageError("tools schema takes exactly one tool name")
					}
					k, err := openKernel(c)
					if err != nil {
						return fmt.Errorf("tools schema: %w", err)
					}
					defer k.Close()
					name, ok := k.Resolve(c.Args().First())
					if !ok {
						return fmt.Errorf("unknown tool %q%s", c.Args().First(), tool.DidYouMean(c.Args().First(), toolNames(k)))
					}
					for _, s := range k.Tools() {
						if s.Name == name {
							return printJSON(c.App.Writer, s.InputSchema)
						}
					}
					return fmt.Errorf("tool %q is excluded by configuration", name)
				},
			},
			{
				Name:  "manifest",
				Usage: "the deterministic JSON manifest of every tool",
				Action: func(c *ucli.Context) error {
					k, err := openKernel(c)
					if err != nil {
						return fmt.Errorf("tools manifest: %w", err)
					}
					defer k.Close()
					m, err := k.Manifest()
					if err != nil {
						return fmt.Errorf("tools manifest: %w", err)
					}
					_, err = c.App.Writer.Write(m)
					return err
				},
			},
		},
	}
}
