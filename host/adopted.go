package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/apptree"
	bridgecli "github.com/cmdbridge/cmdbridge/surface/cli"
)

// adoptedReason is the finding of every tool of a program adopted with the light line:
// why it never runs in-process here.
const adoptedReason = "adopted with cmdbridge.Command: the cmdbridge host serves it and the program runs each call itself (subprocess lane); host.Command runs vouched-for commands in-process"

// init makes the light line (cmdbridge.Command) serve in-process in a program that
// links this package: the serving stack is in the program already.
func init() {
	adopted.InProcess = func(ctx any, bridge string, cfg any) error {
		c := Config{Config: cfg.(cmdbridge.Config)}
		c.Name = bridge
		return Command(&c).Action(ctx.(*cli.Context))
	}
}

// Adopted serves a program adopted with the light line (cmdbridge.Command), which
// execs the host as `cmdbridge __adopted PROGRAM BRIDGE ARGS…`: args are PROGRAM (the
// adopted executable), BRIDGE (its bridge subcommand's name) and the bridge's command
// line. The program's app and configuration come from its manifest (`PROGRAM BRIDGE
// __manifest`); every call runs PROGRAM with the leaf's path, and what re-launches this
// command line (mcp enable's entry, the sandbox runner) is `PROGRAM BRIDGE …`, never
// the host. It returns the exit status. Its command line has the bridge's commands
// only; [Main] serves it with Config.Hosted besides.
func Adopted(args []string, stdout, stderr io.Writer) int {
	return serveAdopted(args, stdout, stderr, nil)
}

// serveAdopted is [Adopted] with hosted as more subcommands of the command line.
func serveAdopted(args []string, stdout, stderr io.Writer, hosted []*cli.Command) int {
	if len(args) < 2 {
		fmt.Fprintf(stderr, "cmdbridge %s: PROGRAM and BRIDGE are missing: this is how a program adopted with cmdbridge.Command starts its host (`PROGRAM bridge …` runs it)\n", adopted.HostWord)
		return bridgecli.ExitUsage
	}
	program, bridge, rest := args[0], args[1], args[2:]
	title := filepath.Base(program) + " " + bridge
	m, err := readManifest(program, bridge)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", title, err)
		return bridgecli.ExitFailed
	}
	c := serving{Config: Config{Subcommands: hosted}}
	if len(m.Config) > 0 {
		dec := json.NewDecoder(bytes.NewReader(m.Config))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c.Config.Config); err != nil { // the program's cmdbridge.Config
			fmt.Fprintf(stderr, "%s: the program's configuration: %v (was it built with a newer cmdbridge? %s)\n", title, err, adopted.InstallHint(m.Version))
			return bridgecli.ExitFailed
		}
	}
	stub := func(path []string) cli.ActionFunc {
		return func(*cli.Context) error {
			return cli.Exit(fmt.Sprintf("%s: this command was read from %s's manifest and only describes it: run the program itself (the subprocess lane)",
				strings.Join(append([]string{bridge}, path...), " "), program), 70)
		}
	}
	newApp := func() *cli.App { return apptree.Build(m.App, stub) }
	app := newApp()
	if c.Binary == "" {
		c.Binary = program
	}
	c.described = &described{reason: adoptedReason, warnings: unknownFlags(m.App)}
	c.meta = m.App.CommandMeta()
	h, err := c.host(newApp, app, true, program)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", title, err)
		return bridgecli.ExitFailed
	}
	h.Name = app.Name + " " + bridge
	h.Executable, h.Self = program, []string{bridge}
	h.Adopted = true
	return bridgecli.Main(append([]string{h.Name}, rest...), stdout, stderr, h)
}

// manifestEnv are the only variables `PROGRAM BRIDGE __manifest` gets: a flag's value
// taken from the environment (or from a .env file the program's main loads from the
// working directory) is not its default, and a secret must never become a schema's.
var manifestEnv = []string{"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "SYSTEMROOT"}

// readManifest runs `program bridge __manifest` and decodes what it prints. The
// program runs its own main first, as on any call, with an empty stdin, in an empty
// directory, and with only the variables of manifestEnv.
func readManifest(program, bridge string) (*adopted.Manifest, error) {
	dir, err := os.MkdirTemp("", "cmdbridge-manifest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(context.Background(), program, bridge, adopted.ManifestWord)
	cmd.Stdout, cmd.Stderr, cmd.Dir = &out, &errOut, dir
	cmd.Env = []string{}
	for _, k := range manifestEnv {
		if v, ok := os.LookupEnv(k); ok {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errOut.String())
		if msg == "" {
			msg = strings.TrimSpace(out.String())
		}
		return nil, fmt.Errorf("reading the program's manifest (%s %s %s): %v: %s", program, bridge, adopted.ManifestWord, err, msg)
	}
	return adopted.Decode(out.Bytes())
}

// unknownFlags are the warnings, per tool, of the flags the manifest describes as of a
// type that is not urfave/cli v2's (apptree.Flag.Unknown): adapter.UnknownFlagWarning,
// what the in-process line's schema derivation says of such a flag, so both lines warn
// alike.
func unknownFlags(t *apptree.Tree) map[string][]string {
	out := map[string][]string{}
	note := func(flags []apptree.Flag) (ws []string) {
		for _, f := range flags {
			switch {
			case f.Hidden:
			case f.Described != "":
				ws = append(ws, "flag --"+f.Name+": "+f.Described)
			case f.Unknown != "":
				ws = append(ws, "flag --"+f.Name+": "+adapter.UnknownFlagWarning(f.Unknown, f.Kind != "bool"))
			}
		}
		return ws
	}
	var walk func(path []string, inherited []string, cs []apptree.Command)
	walk = func(path []string, inherited []string, cs []apptree.Command) {
		for _, c := range cs {
			if c.Hidden || c.Name == "help" {
				continue
			}
			p := append(slices.Clone(path), c.Name)
			ws := append(note(c.Flags), inherited...)
			if (len(c.Subcommands) == 0 || c.HasAction) && len(ws) > 0 {
				out[strings.Join(p, ":")] = ws
			}
			walk(p, ws, c.Subcommands)
		}
	}
	root := note(t.Flags)
	if len(t.Commands) == 0 {
		if len(root) > 0 {
			out[t.Name] = root
		}
		return out
	}
	walk(nil, root, t.Commands)
	return out
}
