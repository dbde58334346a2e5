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

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
)

type serveOptions struct {
	IO        ioStreams
	Host      Host
	Kernel    kernelOpener
	Workspace func() (string, error) // the existing workspace
	State     func() (statedir.Dir, error)

	Addr             string
	AllowRemote      bool
	MaxBody          int64
	MaxMCPBody       int64
	Limits           surfacehttp.Limits
	AllowOrigins     []string
	PublicURL        string
	BufferedEvidence bool
	NATS, NATSCreds  string
	Dialect          string
	OnDemand         bool
}

// newServeCmd runs the HTTP conductor sidecar until SIGINT or SIGTERM.
func newServeCmd(f *factory, runF func(*serveOptions) error) *ucli.Command {
	opts := &serveOptions{IO: f.IO, Host: f.Host}
	l := &opts.Limits
	return &ucli.Command{
		Name:  "serve",
		Usage: "serve the tools over HTTP (GET /tools, POST /tools/{name}, /mcp, /events) to bearer-token holders",
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "addr", Usage: "listen address (port 0 picks a free port)", Value: "127.0.0.1:0", Destination: &opts.Addr},
			&ucli.BoolFlag{Name: "allow-remote", Usage: "allow a non-loopback listen address", Destination: &opts.AllowRemote},
			&ucli.Int64Flag{Name: "max-body", Usage: "largest request body in bytes (POST /tools, /turns, /commands, /events/ack)", Value: surfacehttp.DefaultMaxBody, Destination: &opts.MaxBody},
			&ucli.Int64Flag{Name: "max-mcp-body", Usage: "largest /mcp request body in bytes", Value: mcp.DefaultMaxBodyBytes, Destination: &opts.MaxMCPBody},
			&ucli.DurationFlag{Name: "header-timeout", Usage: "time a client has to send a request's headers", Value: surfacehttp.DefaultHeaderTimeout, Destination: &l.HeaderTimeout},
			&ucli.DurationFlag{Name: "body-timeout", Usage: "time a client has to send a whole request, headers and body", Value: surfacehttp.DefaultBodyTimeout, Destination: &l.BodyTimeout},
			&ucli.DurationFlag{Name: "write-timeout", Usage: "time each write of a response may take (a client that stops reading is cut off; long calls and streams are not)", Value: surfacehttp.DefaultWriteTimeout, Destination: &l.WriteTimeout},
			&ucli.DurationFlag{Name: "idle-timeout", Usage: "time a keep-alive connection may wait for its next request", Value: surfacehttp.DefaultIdleTimeout, Destination: &l.IdleTimeout},
			&ucli.IntFlag{Name: "max-conns", Usage: "most open connections (0: 512, or half the open-file limit when lower)", Destination: &l.MaxConns},
			&ucli.IntFlag{Name: "max-conns-per-addr", Usage: "most connections of one client address that have not carried a valid token", Value: surfacehttp.DefaultMaxConnsPerAddr, Destination: &l.MaxConnsPerAddr},
			&ucli.StringSliceFlag{Name: "allow-origin", Usage: "a browser origin (https://host[:port], or *) allowed besides the server's own; repeatable"},
			&ucli.StringFlag{Name: "public-url", Usage: "the origin clients reach the server at (https://host[:port]), named in the OAuth protected resource metadata and 401 challenges (default: each request's own)", Destination: &opts.PublicURL},
			&ucli.BoolFlag{Name: "buffered-evidence", Usage: "append receipts without fsync (faster; a machine crash may lose the last receipts)", Destination: &opts.BufferedEvidence},
			&ucli.StringFlag{Name: "nats", Usage: "also join this NATS broker (comma-separated URLs; needs 'cmdbridge enroll'; default: nats.url of .cmdbridge/config.yaml; see docs/scale.md)", Destination: &opts.NATS},
			&ucli.StringFlag{Name: "nats-creds", Usage: "NATS credentials file (default: nats.creds of .cmdbridge/config.yaml)", Destination: &opts.NATSCreds},
			dialectFlag(&opts.Dialect), onDemandFlag(&opts.OnDemand),
		}, viewFlags()...),
		Action: func(c *ucli.Context) error {
			opts.AllowOrigins, opts.Kernel, opts.State = c.StringSlice("allow-origin"), kernelOf(c), stateDirOf(c)
			opts.Workspace = func() (string, error) { return existingWorkspace(c) }
			if runF != nil {
				return runF(opts)
			}
			return runServe(opts)
		},
	}
}

// runServe serves until SIGINT or SIGTERM: the events hub, the kernel, the HTTP server
// and, with a broker, the sidecar that joins it.
func runServe(opts *serveOptions) error {
	if err := checkLoopback(opts.Addr, opts.AllowRemote); err != nil {
		return usageError("%v", err)
	}
	ws, err := opts.Workspace()
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	st, err := opts.State()
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	key, err := token.LoadKey(st.Root)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	dialect, err := parseDialect(opts.Dialect)
	if err != nil {
		return err
	}
	// The broker is an option: without --nats (or nats.url in the config file) nothing
	// below changes what serve does.
	bc, err := brokerOf(opts, ws, st.Root)
	if err != nil {
		return err // its errors name serve --nats
	}
	hub, err := serveHub(st, bc)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer hub.Close()
	// The event hook, the broker and this function all report on stderr, from their own
	// goroutines: one lock keeps their lines whole (and a caller's writer unraced).
	stderr := &lockedWriter{w: opts.IO.ErrOut}
	store, withStore := hostStore()
	defer store.Close()
	k, err := opts.Kernel(withStore, serveSettings(opts, bc, hub, stderr))
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer k.Close()
	srv, err := surfacehttp.New(surfacehttp.Config{
		Kernel: k, Key: key, Events: hub, MaxBodyBytes: opts.MaxBody, MaxMCPBodyBytes: opts.MaxMCPBody,
		Limits: opts.Limits, AllowedOrigins: opts.AllowOrigins, PublicURL: opts.PublicURL,
		MCP: mcpConfig(opts.Host, dialect, opts.OnDemand), SchemaDialect: dialect,
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
	return listenAndServe(opts, ws, srv, hub, stderr)
}

// serveHub is the events hub of serve: its outbox in the state directory, its events
// forwarded to the broker when there is one.
func serveHub(st statedir.Dir, bc *serveBroker) (*events.Hub, error) {
	cfg := events.Config{Dir: st.Path(statedir.Events), Source: "cmdbridge"}
	if sub := bc.enrollment.Subject; sub != "" {
		// The enrolled subject names the producer: event ids hash the source, so two
		// workspaces (or devices) publishing identical content never share an id — the
		// broker's duplicate window would drop one of them.
		cfg.Source, cfg.From = sub, sub
	}
	if bc.url != "" {
		cfg.Forward = bc.forward
	}
	return events.NewHub(cfg)
}

// serveSettings are what serve adds to the one kernel builder every command uses
// (sandbox lane included): the event hook and the evidence durability the flags ask
// for. Calls are never interactive here, so no approver is configured.
func serveSettings(opts *serveOptions, bc *serveBroker, hub *events.Hub, stderr io.Writer) kernelSetting {
	hook := surfacehttp.ToolCalledHook(surfacehttp.PublishToolCalled(hub, func(err error) {
		fmt.Fprintf(stderr, "%s serve: event: %v\n", opts.Host.Name, err)
	}))
	return func(cfg *kernelConfig) {
		cfg.OnResult, cfg.Approver = hook, nil
		if bc.creds != "" {
			// The broker credentials are a secret too: workspace code must not see them.
			cfg.Hidden = append(cfg.Hidden, bc.creds)
		}
		if opts.BufferedEvidence {
			cfg.Evidence.Sync = evidence.SyncBuffered
		}
		if bc.url != "" {
			// Every signed head of the evidence log goes to the control plane, which keeps
			// it (conductor witness): a log rewound later fails against it.
			cfg.Evidence.OnCheckpoint = broker.PublishCheckpoints(hub, func(err error) {
				fmt.Fprintf(stderr, "cmdbridge serve: nats: %v\n", err)
			})
		}
	}
}

// listenAndServe listens on --addr, prints the URL, and serves until a signal (or the
// server failing); then calls in flight end CANCELLED with their receipts, event
// streams end, and the listener drains.
func listenAndServe(opts *serveOptions, ws string, srv *surfacehttp.Server, hub *events.Hub, stderr io.Writer) error {
	name := opts.Host.Name
	// Signals are caught before the URL is printed: whoever reads the URL may stop us.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(opts.IO.Out, "http://%s\n", ln.Addr())
	fmt.Fprintf(stderr, "%s serve: workspace %s; mint a token with '%s token mint'; Ctrl-C stops\n", name, ws, name)

	select {
	case <-ctx.Done():
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	}
	// The deferred k.Close of the caller signs the evidence checkpoint.
	srv.Close()
	_ = hub.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "%s serve: shutdown: %v\n", name, err)
	}
	fmt.Fprintln(stderr, name+" serve: stopped")
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
