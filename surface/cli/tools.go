package cli

import (
	"fmt"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool"
)

// newToolsCmd groups the commands that describe the kernel's tools.
func newToolsCmd(f *factory) *ucli.Command {
	return &ucli.Command{
		Name:        "tools",
		Usage:       "list tools, print a tool's input schema, or the whole manifest",
		Subcommands: []*ucli.Command{newToolsListCmd(f, nil), newToolsSchemaCmd(f, nil), newToolsManifestCmd(f, nil)},
	}
}

type toolsListOptions struct {
	IO     ioStreams
	Kernel kernelOpener
	JSON   bool
}

func newToolsListCmd(f *factory, runF func(*toolsListOptions) error) *ucli.Command {
	opts := &toolsListOptions{IO: f.IO}
	return &ucli.Command{
		Name:  "list",
		Usage: "every tool with its route and description; (!) marks a tool whose schema has warnings, listed below the table",
		Flags: append([]ucli.Flag{&ucli.BoolFlag{Name: "json", Usage: "print JSON", Destination: &opts.JSON}}, viewFlags()...),
		Action: func(c *ucli.Context) error {
			opts.Kernel = kernelOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runToolsList(opts)
		},
	}
}

// toolRow is one tool of `tools list`.
type toolRow struct {
	Name        string `json:"name"`
	Route       string `json:"route"`
	Domain      string `json:"domain,omitempty"`
	ReadOnly    bool   `json:"read_only"`
	Description string `json:"description"`
	// Warnings: where the spec is a fallback (docs/schemas.md).
	Warnings []string `json:"warnings,omitempty"`
}

func runToolsList(opts *toolsListOptions) error {
	k, err := opts.Kernel()
	if err != nil {
		return fmt.Errorf("tools list: %w", err)
	}
	defer k.Close()
	var rows []toolRow
	counts := map[string]int{}
	for _, s := range k.Tools() {
		route, _ := k.Route(s.Name)
		counts[route]++
		rows = append(rows, toolRow{s.Name, route, s.Domain, s.Annotations.ReadOnlyHint, s.Description, s.Warnings})
	}
	if opts.JSON {
		return printJSON(opts.IO.Out, rows)
	}
	if err := printToolTable(opts.IO, rows); err != nil {
		return err
	}
	warned := printToolWarnings(opts.IO, rows)
	fmt.Fprintf(opts.IO.Out, "%d tools: %d adapter, %d native, %d shadow\n",
		len(rows), counts["adapter"], counts["native"], counts["shadow"])
	if warned > 0 {
		fmt.Fprintf(opts.IO.Out, "%d tools with schema warnings\n", warned)
	}
	return nil
}

// printToolTable prints rows as an aligned table, (!) marking a tool with warnings.
func printToolTable(io ioStreams, rows []toolRow) error {
	tw := tabwriter.NewWriter(io.Out, 0, 8, 2, ' ', 0)
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
	return tw.Flush()
}

// printToolWarnings prints the schema warnings below the table and returns the number
// of tools that have some.
func printToolWarnings(io ioStreams, rows []toolRow) int {
	warned := 0
	for _, r := range rows {
		if len(r.Warnings) == 0 {
			continue
		}
		if warned == 0 {
			fmt.Fprintln(io.Out, "\n(!) schema warnings (docs/schemas.md):")
		}
		warned++
		for _, w := range r.Warnings {
			fmt.Fprintf(io.Out, "  %s: %s\n", r.Name, w)
		}
	}
	return warned
}

type toolsSchemaOptions struct {
	IO     ioStreams
	Kernel kernelOpener
	Name   string
}

func newToolsSchemaCmd(f *factory, runF func(*toolsSchemaOptions) error) *ucli.Command {
	opts := &toolsSchemaOptions{IO: f.IO}
	return &ucli.Command{
		Name:      "schema",
		Usage:     "the input JSON Schema of one tool (any spelling of its name)",
		ArgsUsage: "NAME",
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return usageError("tools schema takes exactly one tool name")
			}
			opts.Name, opts.Kernel = c.Args().First(), kernelOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runToolsSchema(opts)
		},
	}
}

func runToolsSchema(opts *toolsSchemaOptions) error {
	k, err := opts.Kernel()
	if err != nil {
		return fmt.Errorf("tools schema: %w", err)
	}
	defer k.Close()
	name, ok := k.Resolve(opts.Name)
	if !ok {
		return fmt.Errorf("unknown tool %q%s", opts.Name, tool.DidYouMean(opts.Name, toolNames(k)))
	}
	for _, s := range k.Tools() {
		if s.Name == name {
			return printJSON(opts.IO.Out, s.InputSchema)
		}
	}
	return fmt.Errorf("tool %q is excluded by configuration", name)
}

type toolsManifestOptions struct {
	IO     ioStreams
	Kernel kernelOpener
}

func newToolsManifestCmd(f *factory, runF func(*toolsManifestOptions) error) *ucli.Command {
	opts := &toolsManifestOptions{IO: f.IO}
	return &ucli.Command{
		Name:  "manifest",
		Usage: "the deterministic JSON manifest of every tool",
		Action: func(c *ucli.Context) error {
			opts.Kernel = kernelOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runToolsManifest(opts)
		},
	}
}

func runToolsManifest(opts *toolsManifestOptions) error {
	k, err := opts.Kernel()
	if err != nil {
		return fmt.Errorf("tools manifest: %w", err)
	}
	defer k.Close()
	m, err := k.Manifest()
	if err != nil {
		return fmt.Errorf("tools manifest: %w", err)
	}
	_, err = opts.IO.Out.Write(m)
	return err
}
