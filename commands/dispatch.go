package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Version is what `delivery --version` prints.
var Version = "0.1.0"

// Pack is the tool pack the corpus's tools belong to: a spelling may carry it as a prefix
// (software-delivery:wu_create).
const Pack = "software-delivery"

// Dispatch runs the command argv names, as the delivery binary does, and returns the exit
// code when the command's main returns without exiting. bin is the multi-call binary's
// name for messages (delivery). It swaps os.Args for the duration of the call.
func Dispatch(ctx context.Context, r *legacy.Registry, bin string, argv []string, stdout, stderr io.Writer) int {
	if len(argv) > 0 {
		if c, ok := r.Lookup(filepath.Base(argv[0])); ok {
			return runMain(ctx, c, argv[1:])
		}
	}
	var rest []string
	if len(argv) > 1 {
		rest = argv[1:]
	}
	if len(rest) == 0 || rest[0] == "--help" || rest[0] == "-h" || rest[0] == "help" {
		writeHelp(r, bin, stdout)
		return 0
	}
	if rest[0] == "--version" || rest[0] == "-v" {
		fmt.Fprintf(stdout, "%s version %s\n", bin, Version)
		return 0
	}
	if c, ok := r.Lookup(rest[0]); ok {
		return runMain(ctx, c, rest[1:])
	}
	return unknownCommand(r, bin, rest, stdout, stderr)
}

func runMain(ctx context.Context, c legacy.Command, args []string) int {
	saved := os.Args
	os.Args = append([]string{c.Name}, args...)
	defer func() { os.Args = saved }()
	c.Main(ctx)
	return 0
}

// unknownCommand reports corpus §2.1's usage error, in the JSON envelope when --json occurs
// before a "--".
func unknownCommand(r *legacy.Registry, bin string, rest []string, stdout, stderr io.Writer) int {
	msg := fmt.Sprintf("unknown command %q", rest[0])
	if s := Suggest(r, rest[0]); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	fmt.Fprintf(stderr, "[%s] usage: %s\n", bin, msg)
	if wantsJSON(rest[1:]) {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(struct {
			OK       bool     `json:"ok"`
			Command  string   `json:"command"`
			Data     any      `json:"data"`
			Error    any      `json:"error"`
			Warnings []string `json:"warnings"`
		}{Command: "", Error: usageDetail{Code: "USAGE", Message: msg}, Warnings: []string{}})
	}
	return 2
}

// usageDetail is the envelope's error object, keys in corpus §2.2 order.
type usageDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details any    `json:"details"`
}

func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "--json=true" {
			return true
		}
	}
	return false
}

// Suggest returns the registered name closest to name, or "" when none is close.
func Suggest(r *legacy.Registry, name string) string {
	var names []string
	for _, c := range r.All() {
		names = append(names, c.Name)
	}
	return tool.Suggest(name, names)
}

func writeHelp(r *legacy.Registry, bin string, w io.Writer) {
	byDomain := map[string][]legacy.Command{}
	var domains []string
	for _, c := range r.All() {
		if _, seen := byDomain[c.Domain]; !seen {
			domains = append(domains, c.Domain)
		}
		byDomain[c.Domain] = append(byDomain[c.Domain], c)
	}
	sort.Strings(domains)
	fmt.Fprintf(w, "Usage: %s <command> [flags] [arguments]\n\n", bin)
	fmt.Fprintf(w, "%d commands:\n", len(r.All()))
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, d := range domains {
		fmt.Fprintf(tw, "\n%s:\n", d)
		for _, c := range byDomain[d] {
			fmt.Fprintf(tw, "  %s\t%s\n", c.Name, c.New().Usage)
		}
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\nRun '%s <command> --help' for a command's flags.\n", bin)
}
