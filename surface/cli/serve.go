package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
)

// serveCommand runs the HTTP conductor sidecar until SIGINT or SIGTERM.
func serveCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "serve",
		Usage: "serve the tools over HTTP (GET /tools, POST /tools/{name}, /mcp, /events) to bearer-token holders",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "addr", Usage: "listen address (port 0 picks a free port)", Value: "127.0.0.1:0"},
			&ucli.BoolFlag{Name: "allow-remote", Usage: "allow a non-loopback listen address"},
			&ucli.Int64Flag{Name: "max-body", Usage: "largest request body in bytes (POST /tools, /turns, /commands, /events/ack)", Value: surfacehttp.DefaultMaxBody},
			&ucli.Int64Flag{Name: "max-mcp-body", Usage: "largest /mcp request body in bytes", Value: mcp.DefaultMaxBodyBytes},
			&ucli.DurationFlag{Name: "header-timeout", Usage: "time a client has to send a request's headers", Value: surfacehttp.DefaultHeaderTimeout},
			&ucli.DurationFlag{Name: "body-timeout", Usage: "time a client has to send a whole request, headers and body", Value: surfacehttp.DefaultBodyTimeout},
			&ucli.DurationFlag{Name: "write-timeout", Usage: "time each write of a response may take (a client that stops reading is cut off; long calls and streams are not)", Value: surfacehttp.DefaultWriteTimeout},
			&ucli.DurationFlag{Name: "idle-timeout", Usage: "time a keep-alive connection may wait for its next request", Value: surfacehttp.DefaultIdleTimeout},
			&ucli.IntFlag{Name: "max-conns", Usage: "most open connections (0: 512, or half the open-file limit when lower)"},
			&ucli.IntFlag{Name: "max-conns-per-addr", Usage: "most connections of one client address that have not carried a valid token", Value: surfacehttp.DefaultMaxConnsPerAddr},
			&ucli.StringSliceFlag{Name: "allow-origin", Usage: "a browser origin (https://host[:port], or *) allowed besides the server's own; repeatable"},
			&ucli.StringFlag{Name: "public-url", Usage: "the origin clients reach the server at (https://host[:port]), named in the OAuth protected resource metadata and 401 challenges (default: each request's own)"},
			&ucli.BoolFlag{Name: "buffered-evidence", Usage: "append receipts without fsync (faster; a machine crash may lose the last receipts)"},
			&ucli.StringFlag{Name: "nats", Usage: "also join this NATS broker (comma-separated URLs; needs 'cmdbridge enroll'; default: nats.url of .cmdbridge/config.yaml; see docs/scale.md)"},
			&ucli.StringFlag{Name: "nats-creds", Usage: "NATS credentials file (default: nats.creds of .cmdbridge/config.yaml)"},
			dialectFlag(), onDemandFlag(),
		}, viewFlags()...),
		Action: runServe,
	}
}

func runServe(c *ucli.Context) error {
	addr := c.String("addr")
	if err := checkLoopback(addr, c.Bool("allow-remote")); err != nil {
		return usageError("%v", err)
	}
	ws, err := existingWorkspace(c)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	st, err := stateOf(c)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	key, err := token.LoadKey(st.Root)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	dialect, err := dialectOf(c)
	if err != nil {
		return err
	}
	// The broker is an option: without --nats (or nats.url in the config file) nothing
	// below changes what serve does.
	bc, err := brokerOf(c, ws, st.Root)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	hubCfg := events.Config{Dir: st.Path(statedir.Events), Source: "cmdbridge"}
	if sub := bc.enrollment.Subject; sub != "" {
		// The enrolled subject names the producer: event ids hash the source, so two
		// workspaces (or devices) publishing identical content never share an id — the
		// broker's duplicate window would drop one of them.
		hubCfg.Source, hubCfg.From = sub, sub
	}
	if bc.url != "" {
		hubCfg.Forward = bc.forward
	}
	hub, err := events.NewHub(hubCfg)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer hub.Close()
	// The event hook, the broker and this function all report on stderr, from their own
	// goroutines: one lock keeps their lines whole (and a caller's writer unraced).
	stderr := &lockedWriter{w: c.App.ErrWriter}
	hook := surfacehttp.ToolCalledHook(surfacehttp.PublishToolCalled(hub, func(err error) {
		fmt.Fprintf(stderr, "%s serve: event: %v\n", hostOf(c).Name, err)
	}))
	// The one kernel builder every command uses (sandbox lane included), plus the event
	// hook and the evidence durability the flags ask for. Calls are never interactive
	// here, so no approver is configured.
	store, withStore := hostStore()
	defer store.Close()
	k, err := openKernel(c, withStore, func(cfg *assemble.Config) {
		cfg.OnResult, cfg.Approver = hook, nil
		if bc.creds != "" {
			// The broker credentials are a secret too: workspace code must not see them.
			cfg.Hidden = append(cfg.Hidden, bc.creds)
		}
		if c.Bool("buffered-evidence") {
			cfg.Evidence.Sync = evidence.SyncBuffered
		}
		if bc.url != "" {
			// Every signed head of the evidence log goes to the control plane, which keeps
			// it (conductor witness): a log rewound later fails against it.
			cfg.Evidence.OnCheckpoint = broker.PublishCheckpoints(hub, func(err error) {
				fmt.Fprintf(stderr, "cmdbridge serve: nats: %v\n", err)
			})
		}
	})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer k.Close()
	srv, err := surfacehttp.New(surfacehttp.Config{
		Kernel: k, Key: key, Events: hub, MaxBodyBytes: c.Int64("max-body"), MaxMCPBodyBytes: c.Int64("max-mcp-body"),
		Limits: surfacehttp.Limits{
			HeaderTimeout: c.Duration("header-timeout"), BodyTimeout: c.Duration("body-timeout"),
			WriteTimeout: c.Duration("write-timeout"), IdleTimeout: c.Duration("idle-timeout"),
			MaxConns: c.Int("max-conns"), MaxConnsPerAddr: c.Int("max-conns-per-addr"),
		},
		AllowedOrigins: c.StringSlice("allow-origin"),
		PublicURL:      c.String("public-url"),
		MCPOptions:     mcpOptions(c, dialect),
		SchemaDialect:  dialect,
	})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if bc.url != "" {
		stop, err := bc.start(srv, hub, st.Path(brokerStateDir), func(err error) {
			fmt.Fprintf(stderr, "cmdbridge serve: nats: %v\n", err)
		})
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		defer stop()
		// The URL may carry a password or a token (nats://user:pass@host): never logged.
		fmt.Fprintf(stderr, "cmdbridge serve: joining NATS at %s as %s\n", broker.RedactURLs(bc.url), bc.enrollment.Subject)
	}
	// Signals are caught before the URL is printed: whoever reads the URL may stop us.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(c.App.Writer, "http://%s\n", ln.Addr())
	fmt.Fprintf(stderr, "%s serve: workspace %s; mint a token with '%s token mint'; Ctrl-C stops\n", hostOf(c).Name, ws, hostOf(c).Name)

	select {
	case <-ctx.Done():
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	}
	// Calls in flight end CANCELLED with their receipts, event streams end, then the
	// listener drains; the deferred k.Close signs the evidence checkpoint.
	srv.Close()
	_ = hub.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "%s serve: shutdown: %v\n", hostOf(c).Name, err)
	}
	fmt.Fprintln(stderr, hostOf(c).Name+" serve: stopped")
	return nil
}

// checkLoopback refuses a listen address that is not loopback, unless allowed. An empty
// host means every interface.
func checkLoopback(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %v", addr, err)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--addr %q is not a loopback address; pass --allow-remote to serve it anyway", addr)
}

// lockedWriter serialises writes to w; each report is one Fprintf, so one Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
