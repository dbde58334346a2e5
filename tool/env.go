package tool

import (
	"context"
	"io"
	"os"
	"time"
)

// IDSource draws random identifiers of a kind ("sig", "dlg", "uuid") with n hex digits.
// The delivery package provides the seeded implementation of corpus §2.5.
type IDSource interface {
	Hex(kind string, n int) string
}

// Env is everything a native handler may use from the outside world.
type Env struct {
	// Dir is the directory the call runs in (the workspace root or a directory inside it).
	Dir string
	// Now returns the current instant.
	Now func() time.Time
	// IDs draws random ids.
	IDs IDSource
	// LookupEnv reads a declared environment variable.
	LookupEnv func(key string) (string, bool)
	// Stdin is the call's standard input (never nil; empty when the call has none).
	Stdin io.Reader
	// Log receives diagnostics (never nil).
	Log io.Writer
	// Interactive says whether a person can answer questions during the call.
	Interactive bool
	// Caller is the authenticated subject of the call (the token's, or the local
	// operator's), "" when the call has none (a legacy binary run by hand). A tool that
	// records who did something records this, never a name from its input. Legacy
	// commands receive it as the environment variable CallerEnv.
	Caller string
	// Store is the host's cache for values that outlive one call (nil: the host keeps
	// nothing between calls, as a one-shot call). It is valid to use a nil Store.
	Store *Store
	// OnNote, when set, records a fact about how the call ran on its receipt (the
	// kernel sets it on native calls: evidence.Receipt.Notes). Tools call [Env.Note].
	OnNote func(key, value string)
}

// Note records key=value on the call's receipt; without a host that keeps notes it
// does nothing.
func (e *Env) Note(key, value string) {
	if e != nil && e.OnNote != nil {
		e.OnNote(key, value)
	}
}

// CallerEnv is the environment variable through which the legacy lanes (adapter,
// subprocess, sandbox) hand a command the call's authenticated subject (Env.Caller).
const CallerEnv = "CMDBRIDGE_CALLER"

// WithCaller returns env plus CallerEnv=subject (a new map; env is not changed), or env
// itself when subject is "".
func WithCaller(env map[string]string, subject string) map[string]string {
	if subject == "" {
		return env
	}
	out := make(map[string]string, len(env)+1)
	for k, v := range env {
		out[k] = v
	}
	out[CallerEnv] = subject
	return out
}

// Getenv returns the value of key, or "" when it is unset.
func (e *Env) Getenv(key string) string {
	if e == nil || e.LookupEnv == nil {
		return ""
	}
	v, _ := e.LookupEnv(key)
	return v
}

// EnvFromMap returns a LookupEnv function over a fixed map.
func EnvFromMap(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

// ProcessEnv returns a LookupEnv over the process environment, for hosts (never for
// native handlers, which receive it through Env).
func ProcessEnv() func(string) (string, bool) { return os.LookupEnv }

type envKey struct{}

// ContextWithEnv returns ctx carrying env, the Env of the call ctx serves. Shared code
// that is handed the call's context but not its Env (delivery's git discovery, reached
// through helpers whose signatures predate the Env) reads the call's environment
// through [EnvFromContext] instead of the host process's. native.Tool attaches it to
// every call.
func ContextWithEnv(ctx context.Context, env *Env) context.Context {
	return context.WithValue(ctx, envKey{}, env)
}

// EnvFromContext returns the Env ctx carries, or nil.
func EnvFromContext(ctx context.Context) *Env {
	env, _ := ctx.Value(envKey{}).(*Env)
	return env
}
