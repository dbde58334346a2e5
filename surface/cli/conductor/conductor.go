package conductor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Command is a small control plane over the broker: act as its NATS issuer,
// provision the streams, issue enrollment tokens and NATS credentials, list the
// workspaces that announce themselves, call a tool on one, send it a command, tail the
// events of all, and keep their evidence heads. Its own state (the key that signs
// enrollment tokens, the device registry) is the --workspace's state directory.
func Command() *ucli.Command {
	return &ucli.Command{
		Name:  "conductor",
		Usage: "a control plane over NATS: provision, issue enrollment tokens, list workspaces, call tools, send commands, tail events (docs/scale.md)",
		Subcommands: []*ucli.Command{
			newConductorProvisionCmd(nil),
			newConductorIssueCmd(nil),
			newConductorNATSConfigCmd(nil),
			newConductorPermissionsCmd(nil),
			newConductorWorkspacesCmd(nil),
			newConductorCallCmd(nil),
			newConductorSendCmd(nil),
			newConductorTailCmd(nil),
			newConductorWitnessCmd(nil),
			newConductorCheckpointsCmd(nil),
		},
	}
}

// conductorCreds is the control plane's own NATS credentials file in its state
// directory, written by 'conductor nats-config'.
const conductorCreds = "conductor.creds"

// brokerConn is where a conductor command reaches the broker: --nats, --nats-creds,
// and the state directory whose credentials are the default.
type brokerConn struct {
	NATS, Creds string
	State       func() (statedir.Dir, error)
}

// connFlags bind --nats and --nats-creds to conn.
func connFlags(conn *brokerConn) []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "nats", Usage: "NATS server URLs, comma-separated", Value: nats.DefaultURL, Destination: &conn.NATS},
		&ucli.StringFlag{Name: "nats-creds", Usage: "NATS credentials file (default: the conductor's own, written by 'conductor nats-config', when there is one)", Destination: &conn.Creds},
	}
}

// dial connects to the broker with the credentials (default: the conductor's own,
// when nats-config wrote them), failing fast: a control-plane command is interactive,
// so a broker that is away is an error, not a wait.
func (b brokerConn) dial() (*nats.Conn, error) {
	opts := []nats.Option{nats.Name("cmdbridge conductor"), nats.Timeout(5 * time.Second)}
	creds := b.Creds
	if creds == "" {
		if st, err := b.State(); err == nil {
			if p := filepath.Join(st.Root, conductorCreds); fileExists(p) {
				creds = p
			}
		}
	}
	if creds != "" {
		opts = append(opts, nats.UserCredentials(creds))
	}
	nc, err := nats.Connect(b.NATS, opts...)
	if err != nil {
		return nil, fmt.Errorf("nats %s: %w", broker.RedactURLs(b.NATS), err)
	}
	return nc, nil
}

// controlPlane is what the listening conductor commands start from: the workspace's
// state, its device registry (subject → name) and a broker connection, which the caller
// closes.
func (b brokerConn) controlPlane() (statedir.Dir, broker.Devices, *nats.Conn, error) {
	st, err := b.State()
	if err != nil {
		return statedir.Dir{}, nil, nil, err
	}
	devs, err := broker.LoadDevices(st.Root)
	if err != nil {
		return statedir.Dir{}, nil, nil, err
	}
	nc, err := b.dial()
	if err != nil {
		return statedir.Dir{}, nil, nil, err
	}
	return st, devs, nc, nil
}

// bind sets what conn reads from the parsed command line.
func (b *brokerConn) bind(c *ucli.Context) { b.State = stateDirOf(c) }

// streams are the writers of the command line a command runs in: those handed to
// cli.Main.
type streams struct{ Out, ErrOut io.Writer }

func streamsOf(c *ucli.Context) streams { return streams{Out: c.App.Writer, ErrOut: c.App.ErrWriter} }

// stateDirOf finds the state directory of the workspace the parsed command line c
// names (cli.StateDir).
func stateDirOf(c *ucli.Context) func() (statedir.Dir, error) {
	return func() (statedir.Dir, error) { return cli.StateDir(c) }
}

// printJSON writes v as indented JSON with a trailing newline.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// brokerTarget is what a conductor command addressed to one workspace takes: --to,
// --key, --timeout and the connection flags.
type brokerTarget struct {
	brokerConn
	To      string
	Key     string // idempotency key; empty: a fresh one
	Timeout time.Duration
}

func targetFlags(t *brokerTarget) []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.StringFlag{Name: "to", Usage: "the workspace id", Required: true, Destination: &t.To},
		&ucli.StringFlag{Name: "key", Usage: "idempotency key (message id): retries of one call or command must reuse it; default: a fresh one", Destination: &t.Key},
		&ucli.DurationFlag{Name: "timeout", Usage: "give up after this long", Value: 30 * time.Second, Destination: &t.Timeout},
	}, connFlags(&t.brokerConn)...)
}

// key is --key, or a fresh random key for this invocation (its own retries reuse it).
func (t brokerTarget) key() string {
	if t.Key != "" {
		return t.Key
	}
	return "cli-" + nats.NewInbox()[len(nats.InboxPrefix):]
}

// watch is what a conductor command that watches until told to stop takes: --durable,
// --for and --count.
type watch struct {
	Durable string
	For     time.Duration
	Count   int
}

func watchFlags(w *watch, durable ucli.StringFlag, what string) []ucli.Flag {
	durable.Name, durable.Destination = "durable", &w.Durable
	return []ucli.Flag{
		&durable,
		&ucli.DurationFlag{Name: "for", Usage: "stop after this long (0: until Ctrl-C)", Destination: &w.For},
		&ucli.IntFlag{Name: "count", Usage: "stop after this many " + what + " (0: no limit)", Destination: &w.Count},
	}
}

// context is the context of a watching command: Ctrl-C or SIGTERM, --for's duration,
// or the returned cancel (which a command calls once --count items were printed, and
// defers).
func (w watch) context(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	endFor := context.CancelFunc(func() {})
	if w.For > 0 {
		ctx, endFor = context.WithTimeout(ctx, w.For)
	}
	ctx, cancel := context.WithCancel(ctx)
	return ctx, func() { cancel(); endFor(); stop() }
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// printJSONLine writes v as one line of JSON.
func printJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("print: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

type conductorProvisionOptions struct {
	IO       streams
	Conn     brokerConn
	Ctx      context.Context
	Replicas int
}

func newConductorProvisionCmd(runF func(*conductorProvisionOptions) error) *ucli.Command {
	opts := &conductorProvisionOptions{}
	return &ucli.Command{
		Name:  "provision",
		Usage: "create or update the event and command streams",
		Flags: append([]ucli.Flag{&ucli.IntFlag{Name: "replicas", Usage: "servers holding each stream", Value: 1, Destination: &opts.Replicas}}, connFlags(&opts.Conn)...),
		Action: func(c *ucli.Context) error {
			opts.IO = streamsOf(c)
			opts.Conn.bind(c)
			opts.Ctx = c.Context
			if runF != nil {
				return runF(opts)
			}
			return runConductorProvision(opts)
		},
	}
}

func runConductorProvision(opts *conductorProvisionOptions) error {
	nc, err := opts.Conn.dial()
	if err != nil {
		return fmt.Errorf("conductor provision: %w", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("conductor provision: %w", err)
	}
	ctx, cancel := context.WithTimeout(opts.Ctx, 30*time.Second)
	defer cancel()
	if err := broker.EnsureStreams(ctx, js, broker.StreamOptions{Replicas: opts.Replicas}); err != nil {
		return fmt.Errorf("conductor provision: %w", err)
	}
	fmt.Fprintf(opts.IO.Out, "streams %s and %s ready\n", broker.EventStream, broker.CommandStream)
	return nil
}

type conductorIssueOptions struct {
	IO    streams
	State func() (statedir.Dir, error)

	Subject string
	Name    string // for the device registry
	TTL     time.Duration
	Creds   string // also write the workspace's NATS credentials here
}

func newConductorIssueCmd(runF func(*conductorIssueOptions) error) *ucli.Command {
	opts := &conductorIssueOptions{}
	return &ucli.Command{
		Name:  "issue",
		Usage: "print an enrollment token for a workspace or phone device (signed with this control plane's key) and record its name",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "subject", Usage: "<workspace_id> or <workspace_id>:phone:<device_id>", Required: true, Destination: &opts.Subject},
			&ucli.StringFlag{Name: "name", Usage: "a human name for the device registry", Destination: &opts.Name},
			&ucli.DurationFlag{Name: "ttl", Usage: "lifetime of the enrollment (and of the NATS credentials)", Value: 30 * 24 * time.Hour, Destination: &opts.TTL},
			&ucli.StringFlag{Name: "creds", Usage: "also write the workspace's NATS credentials file here (a user JWT confined to its subjects, signed by this control plane's issuer; see 'conductor nats-config')", Destination: &opts.Creds},
		},
		Action: func(c *ucli.Context) error {
			opts.IO = streamsOf(c)
			opts.State = stateDirOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runConductorIssue(opts)
		},
	}
}

func runConductorIssue(opts *conductorIssueOptions) error {
	st, err := opts.State()
	if err != nil {
		return fmt.Errorf("conductor issue: %w", err)
	}
	key, err := token.LoadKey(st.Root)
	if err != nil {
		return fmt.Errorf("conductor issue: %w", err)
	}
	tok, _, err := token.Mint(key, token.MintOptions{Subject: opts.Subject, Tools: []string{}, TTL: opts.TTL})
	if err != nil {
		return cli.UsageErrorf("%v", err)
	}
	if opts.Creds != "" {
		if err := writeWorkspaceCreds(st, opts); err != nil {
			return err
		}
	}
	if opts.Name != "" {
		devs, err := broker.LoadDevices(st.Root)
		if err != nil {
			return fmt.Errorf("conductor issue: %w", err)
		}
		devs[opts.Subject] = opts.Name
		if err := devs.Save(st.Root); err != nil {
			return fmt.Errorf("conductor issue: %w", err)
		}
	}
	fmt.Fprintln(opts.IO.Out, tok)
	return nil
}

// writeWorkspaceCreds writes the NATS credentials of the subject's workspace to
// --creds, signed by the issuer nats-config created.
func writeWorkspaceCreds(st statedir.Dir, opts *conductorIssueOptions) error {
	is, ok, err := broker.LoadIssuer(st.Root)
	if err != nil {
		return fmt.Errorf("conductor issue: %w", err)
	}
	if !ok {
		return fmt.Errorf("conductor issue --creds: no NATS issuer yet; run 'cmdbridge conductor nats-config' first")
	}
	creds, err := is.WorkspaceCreds(broker.WorkspaceOf(opts.Subject), time.Now().Add(opts.TTL))
	if err != nil {
		return fmt.Errorf("conductor issue: %w", err)
	}
	if err := os.WriteFile(opts.Creds, creds, 0o600); err != nil {
		return fmt.Errorf("conductor issue: %w", err)
	}
	return nil
}

type conductorNATSConfigOptions struct {
	IO    streams
	State func() (statedir.Dir, error)

	Listen   string
	StoreDir string
	TTL      time.Duration
}

func newConductorNATSConfigCmd(runF func(*conductorNATSConfigOptions) error) *ucli.Command {
	opts := &conductorNATSConfigOptions{}
	return &ucli.Command{
		Name:  "nats-config",
		Usage: "act as the broker's NATS issuer: create the operator, account and keys on first use, write this control plane's credentials, and print the nats-server configuration that trusts them",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "listen", Usage: "the server's client address", Value: "127.0.0.1:4222", Destination: &opts.Listen},
			&ucli.StringFlag{Name: "store-dir", Usage: "JetStream's store directory (empty: leave the jetstream block out)", Destination: &opts.StoreDir},
			&ucli.DurationFlag{Name: "ttl", Usage: "lifetime of this control plane's NATS credentials", Value: 365 * 24 * time.Hour, Destination: &opts.TTL},
		},
		Action: func(c *ucli.Context) error {
			opts.IO = streamsOf(c)
			opts.State = stateDirOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runConductorNATSConfig(opts)
		},
	}
}

func runConductorNATSConfig(opts *conductorNATSConfigOptions) error {
	st, err := opts.State()
	if err != nil {
		return fmt.Errorf("conductor nats-config: %w", err)
	}
	if err := st.Ensure(); err != nil {
		return fmt.Errorf("conductor nats-config: %w", err)
	}
	is, _, err := broker.OpenIssuer(st.Root)
	if err != nil {
		return fmt.Errorf("conductor nats-config: %w", err)
	}
	creds, err := is.ConductorCreds(time.Now().Add(opts.TTL))
	if err != nil {
		return fmt.Errorf("conductor nats-config: %w", err)
	}
	if err := os.WriteFile(filepath.Join(st.Root, conductorCreds), creds, 0o600); err != nil {
		return fmt.Errorf("conductor nats-config: %w", err)
	}
	fmt.Fprintf(opts.IO.ErrOut, "cmdbridge conductor: this control plane's NATS credentials are in its state directory (%s); workspaces get theirs from 'conductor issue --creds'\n", conductorCreds)
	fmt.Fprintf(opts.IO.Out, "listen: %s\n", opts.Listen)
	if d := opts.StoreDir; d != "" {
		fmt.Fprintf(opts.IO.Out, "jetstream { store_dir: %q }\n", d)
	}
	_, err = io.WriteString(opts.IO.Out, is.ServerConfig())
	return err
}

type conductorPermissionsOptions struct {
	IO        streams
	Workspace string
}

func newConductorPermissionsCmd(runF func(*conductorPermissionsOptions) error) *ucli.Command {
	opts := &conductorPermissionsOptions{}
	return &ucli.Command{
		Name:      "permissions",
		Usage:     "print the NATS permissions a workspace's issued user carries (for a server with static users instead of 'nats-config': an authorization block's permissions; JSON is valid there)",
		ArgsUsage: "WORKSPACE_ID",
		Action: func(c *ucli.Context) error {
			opts.IO = streamsOf(c)
			if c.NArg() != 1 {
				return cli.UsageErrorf("conductor permissions: want one WORKSPACE_ID argument")
			}
			opts.Workspace = c.Args().First()
			if runF != nil {
				return runF(opts)
			}
			return runConductorPermissions(opts)
		},
	}
}

func runConductorPermissions(opts *conductorPermissionsOptions) error {
	p := broker.WorkspacePermissions(opts.Workspace)
	return printJSON(opts.IO.Out, map[string]any{
		"publish":         map[string]any{"allow": p.Publish},
		"subscribe":       map[string]any{"allow": p.Subscribe},
		"allow_responses": p.AllowResponses,
	})
}

type conductorWorkspacesOptions struct {
	IO     streams
	Conn   brokerConn
	Ctx    context.Context
	Listen time.Duration
}

func newConductorWorkspacesCmd(runF func(*conductorWorkspacesOptions) error) *ucli.Command {
	opts := &conductorWorkspacesOptions{}
	return &ucli.Command{
		Name:  "workspaces",
		Usage: "list the workspaces that announce themselves: subject, registry name, whether their enrollment verifies, tools",
		Flags: append([]ucli.Flag{&ucli.DurationFlag{Name: "listen", Usage: "how long to listen for announcements", Value: 2 * time.Second, Destination: &opts.Listen}}, connFlags(&opts.Conn)...),
		Action: func(c *ucli.Context) error {
			opts.IO = streamsOf(c)
			opts.Conn.bind(c)
			opts.Ctx = c.Context
			if runF != nil {
				return runF(opts)
			}
			return runConductorWorkspaces(opts)
		},
	}
}

func runConductorWorkspaces(opts *conductorWorkspacesOptions) error {
	st, devs, nc, err := opts.Conn.controlPlane()
	if err != nil {
		return fmt.Errorf("conductor workspaces: %w", err)
	}
	defer nc.Close()
	key, err := token.LoadKey(st.Root)
	if err != nil {
		return fmt.Errorf("conductor workspaces: %w", err)
	}
	list, err := broker.ListWorkspaces(opts.Ctx, nc, opts.Listen)
	if err != nil {
		return fmt.Errorf("conductor workspaces: %w", err)
	}
	for _, a := range list {
		row := map[string]any{"workspace": a.Workspace, "subject": a.Subject, "name": devs[a.Subject],
			"announced_name": a.Name, "verified": true, "tools": a.Tools}
		if err := broker.VerifyAnnouncement(key, a, time.Now()); err != nil {
			row["verified"], row["why"] = false, err.Error()
		}
		if err := printJSONLine(opts.IO.Out, row); err != nil {
			return err
		}
	}
	return nil
}

type conductorCallOptions struct {
	IO     streams
	Target brokerTarget
	Ctx    context.Context

	Tool  string
	Input string
	Token string
}

func newConductorCallCmd(runF func(*conductorCallOptions) error) *ucli.Command {
	opts := &conductorCallOptions{}
	return &ucli.Command{
		Name:      "call",
		Usage:     "call a tool on a workspace over request/reply (retried with the same key until a reply comes); prints the Output; on failure, prints the key to retry with",
		ArgsUsage: "TOOL",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "input", Usage: "the input JSON object", Value: "{}", Destination: &opts.Input},
			&ucli.StringFlag{Name: "token", Usage: "a bearer token minted by that workspace (cmdbridge token mint); default: none, the call runs as the workspace's control-plane caller (cmdbridge enroll --control-tools)", EnvVars: []string{"CMDBRIDGE_TOKEN"}, Destination: &opts.Token},
		}, targetFlags(&opts.Target)...),
		Action: func(c *ucli.Context) error {
			opts.IO = streamsOf(c)
			if c.NArg() != 1 {
				return cli.UsageErrorf("conductor call: want one TOOL argument")
			}
			opts.Tool, opts.Ctx = c.Args().First(), c.Context
			opts.Target.bind(c)
			if runF != nil {
				return runF(opts)
			}
			return runConductorCall(opts)
		},
	}
}

func runConductorCall(opts *conductorCallOptions) error {
	t := opts.Target
	nc, err := t.dial()
	if err != nil {
		return fmt.Errorf("conductor call: %w", err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(opts.Ctx, t.Timeout)
	defer cancel()
	key := t.key()
	// The call may have run even when no reply came: only the same key keeps a retry
	// from running a write twice, so a failure always names it.
	retry := func() {
		fmt.Fprintf(opts.IO.ErrOut, "cmdbridge conductor call: to retry without running it twice, reuse its idempotency key: --key %s\n", key)
	}
	r, err := broker.Call(ctx, nc, broker.CallRequest{Workspace: t.To, Tool: opts.Tool, Token: opts.Token,
		Body: []byte(opts.Input), Key: key}, 10, t.Timeout/10)
	if err != nil {
		retry()
		return fmt.Errorf("conductor call: %w", err)
	}
	if _, err := opts.IO.Out.Write(r.Body); err != nil {
		return err
	}
	var out tool.Output
	if r.Status != 200 || json.Unmarshal(r.Body, &out) != nil || !out.Success {
		retry()
		return cli.ErrSilent
	}
	return nil
}

type conductorSendOptions struct {
	IO     streams
	Target brokerTarget
	Ctx    context.Context

	Command string
	Args    string // one JSON object
	Channel string // default: the workspace id
}

func newConductorSendCmd(runF func(*conductorSendOptions) error) *ucli.Command {
	opts := &conductorSendOptions{}
	return &ucli.Command{
		Name:  "send",
		Usage: "send a command to a workspace through the command stream (its agent reads it as conductor:command); it carries no token and runs as the workspace's control-plane caller",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "command", Usage: "the command", Required: true, Destination: &opts.Command},
			&ucli.StringFlag{Name: "args", Usage: "its arguments, one JSON object", Destination: &opts.Args},
			&ucli.StringFlag{Name: "channel", Usage: "the channel (default: the workspace id, so the workspace's own agent sees it; the workspace's control-plane caller must be allowed it)", Destination: &opts.Channel},
		}, targetFlags(&opts.Target)...),
		Action: func(c *ucli.Context) error {
			opts.IO = streamsOf(c)
			opts.Ctx = c.Context
			opts.Target.bind(c)
			if runF != nil {
				return runF(opts)
			}
			return runConductorSend(opts)
		},
	}
}

func runConductorSend(opts *conductorSendOptions) error {
	t := opts.Target
	// Addressed to the workspace unless told otherwise: a command on the control plane's
	// own channel would be invisible to the workspace's agent.
	body := map[string]any{"command": opts.Command, "channel": t.To}
	if opts.Channel != "" {
		body["channel"] = opts.Channel
	}
	if opts.Args != "" {
		body["args"] = json.RawMessage(opts.Args)
	}
	b, err := json.Marshal(body)
	if err != nil {
		return cli.UsageErrorf("conductor send: --args: %v", err)
	}
	nc, err := t.dial()
	if err != nil {
		return fmt.Errorf("conductor send: %w", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("conductor send: %w", err)
	}
	ctx, cancel := context.WithTimeout(opts.Ctx, t.Timeout)
	defer cancel()
	sign, err := commandSigner(t.State)
	if err != nil {
		return fmt.Errorf("conductor send: %w", err)
	}
	key := t.key()
	if err := broker.SendCommand(ctx, js, t.To, key, b, sign); err != nil {
		fmt.Fprintf(opts.IO.ErrOut, "cmdbridge conductor send: to retry without queuing it twice (within the stream's duplicate window), reuse its key: --key %s\n", key)
		return fmt.Errorf("conductor send: %w", err)
	}
	return nil
}

// commandSigner signs commands with the issuer of this control plane, when it has one:
// its workspaces take only signed commands (nil: no issuer, commands go unsigned).
func commandSigner(state func() (statedir.Dir, error)) (broker.CommandSigner, error) {
	st, err := state()
	if err != nil {
		return nil, err
	}
	is, ok, err := broker.LoadIssuer(st.Root)
	if err != nil || !ok {
		return nil, err
	}
	return is.SignCommand, nil
}

type conductorTailOptions struct {
	IO    streams
	Conn  brokerConn
	Watch watch
	Ctx   context.Context
}

func newConductorTailCmd(runF func(*conductorTailOptions) error) *ucli.Command {
	opts := &conductorTailOptions{}
	durable := ucli.StringFlag{Usage: "durable consumer name: durable events missed while away are delivered too, acknowledged once printed"}
	return &ucli.Command{
		Name:  "tail",
		Usage: "print every workspace's events as JSON lines, with the registry name of their subject; an event's workspace is its NATS subject's, never its body's",
		Flags: append(watchFlags(&opts.Watch, durable, "events"), connFlags(&opts.Conn)...),
		Action: func(c *ucli.Context) error {
			opts.IO = streamsOf(c)
			opts.Conn.bind(c)
			opts.Ctx = c.Context
			if runF != nil {
				return runF(opts)
			}
			return runConductorTail(opts)
		},
	}
}

func runConductorTail(opts *conductorTailOptions) error {
	_, devs, nc, err := opts.Conn.controlPlane()
	if err != nil {
		return fmt.Errorf("conductor tail: %w", err)
	}
	defer nc.Close()
	ctx, cancel := opts.Watch.context(opts.Ctx)
	defer cancel()
	n, limit := 0, opts.Watch.Count
	ready := func() { fmt.Fprintln(opts.IO.ErrOut, "cmdbridge conductor: tailing every workspace's events") }
	err = broker.Tail(ctx, nc, opts.Watch.Durable, ready, func(t broker.Tailed) {
		if limit > 0 && n >= limit {
			return
		}
		n++
		row := map[string]any{"from": t.Event.From, "workspace": t.Workspace, "name": devs[t.Event.From],
			"durable": t.Durable, "subject": t.Subject, "event": t.Event}
		if t.Spoofed {
			row["spoofed"] = true
		}
		_ = printJSONLine(opts.IO.Out, row)
		if limit > 0 && n >= limit {
			cancel()
		}
	})
	if err != nil {
		return fmt.Errorf("conductor tail: %w", err)
	}
	return nil
}
