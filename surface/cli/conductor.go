package cli

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
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/tool"
)

// conductorCommand is a small control plane over the broker: act as its NATS issuer,
// provision the streams, issue enrollment tokens and NATS credentials, list the workspaces that announce themselves, call a tool
// on one, send it a command, and tail the events of all. Its own state (the key that
// signs enrollment tokens, the device registry) is the --workspace's state directory.
func conductorCommand() *ucli.Command {
	natsFlag := &ucli.StringFlag{Name: "nats", Usage: "NATS server URLs, comma-separated", Value: nats.DefaultURL}
	credsFlag := &ucli.StringFlag{Name: "nats-creds", Usage: "NATS credentials file (default: the conductor's own, written by 'conductor nats-config', when there is one)"}
	conn := []ucli.Flag{natsFlag, credsFlag}
	target := append([]ucli.Flag{
		&ucli.StringFlag{Name: "to", Usage: "the workspace id", Required: true},
		&ucli.StringFlag{Name: "key", Usage: "idempotency key (message id): retries of one call or command must reuse it; default: a fresh one"},
		&ucli.DurationFlag{Name: "timeout", Usage: "give up after this long", Value: 30 * time.Second},
	}, conn...)
	return &ucli.Command{
		Name:  "conductor",
		Usage: "a control plane over NATS: provision, issue enrollment tokens, list workspaces, call tools, send commands, tail events (docs/scale.md)",
		Subcommands: []*ucli.Command{
			{
				Name:  "provision",
				Usage: "create or update the event and command streams",
				Flags: append([]ucli.Flag{&ucli.IntFlag{Name: "replicas", Usage: "servers holding each stream", Value: 1}}, conn...),
				Action: func(c *ucli.Context) error {
					nc, err := dialBroker(c)
					if err != nil {
						return fmt.Errorf("conductor provision: %w", err)
					}
					defer nc.Close()
					js, err := jetstream.New(nc)
					if err != nil {
						return fmt.Errorf("conductor provision: %w", err)
					}
					ctx, cancel := context.WithTimeout(c.Context, 30*time.Second)
					defer cancel()
					if err := broker.EnsureStreams(ctx, js, broker.StreamOptions{Replicas: c.Int("replicas")}); err != nil {
						return fmt.Errorf("conductor provision: %w", err)
					}
					fmt.Fprintf(c.App.Writer, "streams %s and %s ready\n", broker.EventStream, broker.CommandStream)
					return nil
				},
			},
			{
				Name:  "issue",
				Usage: "print an enrollment token for a workspace or phone device (signed with this control plane's key) and record its name",
				Flags: []ucli.Flag{
					&ucli.StringFlag{Name: "subject", Usage: "<workspace_id> or <workspace_id>:phone:<device_id>", Required: true},
					&ucli.StringFlag{Name: "name", Usage: "a human name for the device registry"},
					&ucli.DurationFlag{Name: "ttl", Usage: "lifetime of the enrollment (and of the NATS credentials)", Value: 30 * 24 * time.Hour},
					&ucli.StringFlag{Name: "creds", Usage: "also write the workspace's NATS credentials file here (a user JWT confined to its subjects, signed by this control plane's issuer; see 'conductor nats-config')"},
				},
				Action: func(c *ucli.Context) error {
					st, err := stateOf(c)
					if err != nil {
						return fmt.Errorf("conductor issue: %w", err)
					}
					key, err := token.LoadKey(st.Root)
					if err != nil {
						return fmt.Errorf("conductor issue: %w", err)
					}
					tok, _, err := token.Mint(key, token.MintOptions{Subject: c.String("subject"), Tools: []string{}, TTL: c.Duration("ttl")})
					if err != nil {
						return usageError("%v", err)
					}
					if out := c.String("creds"); out != "" {
						is, ok, err := broker.LoadIssuer(st.Root)
						if err != nil {
							return fmt.Errorf("conductor issue: %w", err)
						}
						if !ok {
							return fmt.Errorf("conductor issue --creds: no NATS issuer yet; run 'cmdbridge conductor nats-config' first")
						}
						creds, err := is.WorkspaceCreds(broker.WorkspaceOf(c.String("subject")), time.Now().Add(c.Duration("ttl")))
						if err != nil {
							return fmt.Errorf("conductor issue: %w", err)
						}
						if err := os.WriteFile(out, creds, 0o600); err != nil {
							return fmt.Errorf("conductor issue: %w", err)
						}
					}
					if name := c.String("name"); name != "" {
						devs, err := broker.LoadDevices(st.Root)
						if err != nil {
							return fmt.Errorf("conductor issue: %w", err)
						}
						devs[c.String("subject")] = name
						if err := devs.Save(st.Root); err != nil {
							return fmt.Errorf("conductor issue: %w", err)
						}
					}
					fmt.Fprintln(c.App.Writer, tok)
					return nil
				},
			},
			{
				Name:  "nats-config",
				Usage: "act as the broker's NATS issuer: create the operator, account and keys on first use, write this control plane's credentials, and print the nats-server configuration that trusts them",
				Flags: []ucli.Flag{
					&ucli.StringFlag{Name: "listen", Usage: "the server's client address", Value: "127.0.0.1:4222"},
					&ucli.StringFlag{Name: "store-dir", Usage: "JetStream's store directory (empty: leave the jetstream block out)"},
					&ucli.DurationFlag{Name: "ttl", Usage: "lifetime of this control plane's NATS credentials", Value: 365 * 24 * time.Hour},
				},
				Action: func(c *ucli.Context) error {
					st, err := stateOf(c)
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
					creds, err := is.ConductorCreds(time.Now().Add(c.Duration("ttl")))
					if err != nil {
						return fmt.Errorf("conductor nats-config: %w", err)
					}
					path := filepath.Join(st.Root, conductorCreds)
					if err := os.WriteFile(path, creds, 0o600); err != nil {
						return fmt.Errorf("conductor nats-config: %w", err)
					}
					fmt.Fprintf(c.App.ErrWriter, "cmdbridge conductor: this control plane's NATS credentials are in its state directory (%s); workspaces get theirs from 'conductor issue --creds'\n", conductorCreds)
					fmt.Fprintf(c.App.Writer, "listen: %s\n", c.String("listen"))
					if d := c.String("store-dir"); d != "" {
						fmt.Fprintf(c.App.Writer, "jetstream { store_dir: %q }\n", d)
					}
					_, err = io.WriteString(c.App.Writer, is.ServerConfig())
					return err
				},
			},
			{
				Name:      "permissions",
				Usage:     "print the NATS permissions a workspace's issued user carries (for a server with static users instead of 'nats-config': an authorization block's permissions; JSON is valid there)",
				ArgsUsage: "WORKSPACE_ID",
				Action: func(c *ucli.Context) error {
					if c.NArg() != 1 {
						return usageError("conductor permissions: want one WORKSPACE_ID argument")
					}
					p := broker.WorkspacePermissions(c.Args().First())
					return printJSON(c.App.Writer, map[string]any{
						"publish":         map[string]any{"allow": p.Publish},
						"subscribe":       map[string]any{"allow": p.Subscribe},
						"allow_responses": p.AllowResponses,
					})
				},
			},
			{
				Name:  "workspaces",
				Usage: "list the workspaces that announce themselves: subject, registry name, whether their enrollment verifies, tools",
				Flags: append([]ucli.Flag{&ucli.DurationFlag{Name: "listen", Usage: "how long to listen for announcements", Value: 2 * time.Second}}, conn...),
				Action: func(c *ucli.Context) error {
					st, devs, nc, err := controlPlane(c)
					if err != nil {
						return fmt.Errorf("conductor workspaces: %w", err)
					}
					defer nc.Close()
					key, err := token.LoadKey(st.Root)
					if err != nil {
						return fmt.Errorf("conductor workspaces: %w", err)
					}
					list, err := broker.ListWorkspaces(c.Context, nc, c.Duration("listen"))
					if err != nil {
						return fmt.Errorf("conductor workspaces: %w", err)
					}
					for _, a := range list {
						row := map[string]any{"workspace": a.Workspace, "subject": a.Subject, "name": devs[a.Subject],
							"announced_name": a.Name, "verified": true, "tools": a.Tools}
						if err := broker.VerifyAnnouncement(key, a, time.Now()); err != nil {
							row["verified"], row["why"] = false, err.Error()
						}
						if err := printJSONLine(c, row); err != nil {
							return err
						}
					}
					return nil
				},
			},
			{
				Name:      "call",
				Usage:     "call a tool on a workspace over request/reply (retried with the same key until a reply comes); prints the Output; on failure, prints the key to retry with",
				ArgsUsage: "TOOL",
				Flags: append([]ucli.Flag{
					&ucli.StringFlag{Name: "input", Usage: "the input JSON object", Value: "{}"},
					&ucli.StringFlag{Name: "token", Usage: "a bearer token minted by that workspace (cmdbridge token mint); default: none, the call runs as the workspace's control-plane caller (cmdbridge enroll --control-tools)", EnvVars: []string{"CMDBRIDGE_TOKEN"}},
				}, target...),
				Action: func(c *ucli.Context) error {
					if c.NArg() != 1 {
						return usageError("conductor call: want one TOOL argument")
					}
					nc, err := dialBroker(c)
					if err != nil {
						return fmt.Errorf("conductor call: %w", err)
					}
					defer nc.Close()
					ctx, cancel := context.WithTimeout(c.Context, c.Duration("timeout"))
					defer cancel()
					key := keyOf(c)
					// The call may have run even when no reply came: only the same key keeps a
					// retry from running a write twice, so a failure always names it.
					retry := func() {
						fmt.Fprintf(c.App.ErrWriter, "cmdbridge conductor call: to retry without running it twice, reuse its idempotency key: --key %s\n", key)
					}
					r, err := broker.Call(ctx, nc, broker.CallRequest{
						Workspace: c.String("to"), Tool: c.Args().First(), Token: c.String("token"),
						Body: []byte(c.String("input")), Key: key,
					}, 10, c.Duration("timeout")/10)
					if err != nil {
						retry()
						return fmt.Errorf("conductor call: %w", err)
					}
					if _, err := c.App.Writer.Write(r.Body); err != nil {
						return err
					}
					var out tool.Output
					if r.Status != 200 || json.Unmarshal(r.Body, &out) != nil || !out.Success {
						retry()
						return ErrSilent
					}
					return nil
				},
			},
			{
				Name:  "send",
				Usage: "send a command to a workspace through the command stream (its agent reads it as conductor:command); it carries no token and runs as the workspace's control-plane caller",
				Flags: append([]ucli.Flag{
					&ucli.StringFlag{Name: "command", Usage: "the command", Required: true},
					&ucli.StringFlag{Name: "args", Usage: "its arguments, one JSON object"},
					&ucli.StringFlag{Name: "channel", Usage: "the channel (default: the workspace id, so the workspace's own agent sees it; the workspace's control-plane caller must be allowed it)"},
				}, target...),
				Action: func(c *ucli.Context) error {
					// Addressed to the workspace unless told otherwise: a command on the control
					// plane's own channel would be invisible to the workspace's agent.
					body := map[string]any{"command": c.String("command"), "channel": c.String("to")}
					if ch := c.String("channel"); ch != "" {
						body["channel"] = ch
					}
					if a := c.String("args"); a != "" {
						body["args"] = json.RawMessage(a)
					}
					b, err := json.Marshal(body)
					if err != nil {
						return usageError("conductor send: --args: %v", err)
					}
					nc, err := dialBroker(c)
					if err != nil {
						return fmt.Errorf("conductor send: %w", err)
					}
					defer nc.Close()
					js, err := jetstream.New(nc)
					if err != nil {
						return fmt.Errorf("conductor send: %w", err)
					}
					ctx, cancel := context.WithTimeout(c.Context, c.Duration("timeout"))
					defer cancel()
					// With an issuer, sign: its workspaces take only signed commands.
					var sign broker.CommandSigner
					st, err := stateOf(c)
					if err != nil {
						return fmt.Errorf("conductor send: %w", err)
					}
					if is, ok, err := broker.LoadIssuer(st.Root); err != nil {
						return fmt.Errorf("conductor send: %w", err)
					} else if ok {
						sign = is.SignCommand
					}
					key := keyOf(c)
					if err := broker.SendCommand(ctx, js, c.String("to"), key, b, sign); err != nil {
						fmt.Fprintf(c.App.ErrWriter, "cmdbridge conductor send: to retry without queuing it twice (within the stream's duplicate window), reuse its key: --key %s\n", key)
						return fmt.Errorf("conductor send: %w", err)
					}
					return nil
				},
			},
			{
				Name:  "tail",
				Usage: "print every workspace's events as JSON lines, with the registry name of their subject; an event's workspace is its NATS subject's, never its body's",
				Flags: append([]ucli.Flag{
					&ucli.StringFlag{Name: "durable", Usage: "durable consumer name: durable events missed while away are delivered too, acknowledged once printed"},
					&ucli.DurationFlag{Name: "for", Usage: "stop after this long (0: until Ctrl-C)"},
					&ucli.IntFlag{Name: "count", Usage: "stop after this many events (0: no limit)"},
				}, conn...),
				Action: func(c *ucli.Context) error {
					_, devs, nc, err := controlPlane(c)
					if err != nil {
						return fmt.Errorf("conductor tail: %w", err)
					}
					defer nc.Close()
					ctx, cancel := watchContext(c)
					defer cancel()
					n, limit := 0, c.Int("count")
					ready := func() { fmt.Fprintln(c.App.ErrWriter, "cmdbridge conductor: tailing every workspace's events") }
					err = broker.Tail(ctx, nc, c.String("durable"), ready, func(t broker.Tailed) {
						if limit > 0 && n >= limit {
							return
						}
						n++
						row := map[string]any{"from": t.Event.From, "workspace": t.Workspace, "name": devs[t.Event.From],
							"durable": t.Durable, "subject": t.Subject, "event": t.Event}
						if t.Spoofed {
							row["spoofed"] = true
						}
						_ = printJSONLine(c, row)
						if limit > 0 && n >= limit {
							cancel()
						}
					})
					if err != nil {
						return fmt.Errorf("conductor tail: %w", err)
					}
					return nil
				},
			},
			witnessCommand(conn),
			checkpointsCommand(),
		},
	}
}

// conductorCreds is the control plane's own NATS credentials file in its state
// directory, written by 'conductor nats-config'.
const conductorCreds = "conductor.creds"

// dialBroker connects to --nats with --nats-creds (default: the conductor's own
// credentials, when nats-config wrote them), failing fast: a control-plane command is
// interactive, so a broker that is away is an error, not a wait.
func dialBroker(c *ucli.Context) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name("cmdbridge conductor"), nats.Timeout(5 * time.Second)}
	creds := c.String("nats-creds")
	if creds == "" {
		if st, err := stateOf(c); err == nil {
			if p := filepath.Join(st.Root, conductorCreds); fileExists(p) {
				creds = p
			}
		}
	}
	if creds != "" {
		opts = append(opts, nats.UserCredentials(creds))
	}
	nc, err := nats.Connect(c.String("nats"), opts...)
	if err != nil {
		return nil, fmt.Errorf("nats %s: %w", broker.RedactURLs(c.String("nats")), err)
	}
	return nc, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// keyOf is --key, or a fresh random key for this invocation (its own retries reuse it).
func keyOf(c *ucli.Context) string {
	if k := c.String("key"); k != "" {
		return k
	}
	return "cli-" + nats.NewInbox()[len(nats.InboxPrefix):]
}

func printJSONLine(c *ucli.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("print: %w", err)
	}
	_, err = fmt.Fprintf(c.App.Writer, "%s\n", b)
	return err
}

// controlPlane is what the listening conductor commands start from: the workspace's
// state, its device registry (subject → name) and a broker connection, which the caller
// closes.
func controlPlane(c *ucli.Context) (statedir.Dir, broker.Devices, *nats.Conn, error) {
	st, err := stateOf(c)
	if err != nil {
		return statedir.Dir{}, nil, nil, err
	}
	devs, err := broker.LoadDevices(st.Root)
	if err != nil {
		return statedir.Dir{}, nil, nil, err
	}
	nc, err := dialBroker(c)
	if err != nil {
		return statedir.Dir{}, nil, nil, err
	}
	return st, devs, nc, nil
}

// watchContext is the context of a conductor command that watches until told to stop:
// Ctrl-C or SIGTERM, --for's duration, or the returned cancel (which a command calls
// once --count items were printed, and defers).
func watchContext(c *ucli.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	endFor := context.CancelFunc(func() {})
	if d := c.Duration("for"); d > 0 {
		ctx, endFor = context.WithTimeout(ctx, d)
	}
	ctx, cancel := context.WithCancel(ctx)
	return ctx, func() { cancel(); endFor(); stop() }
}
